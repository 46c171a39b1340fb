package org.scrapycluster.rest.http;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.netty.handler.codec.http.HttpMethod;

/**
 * Finds the route of a call: an exact path first, then the longest matching path prefix. A path
 * no route serves is refused with 404 ({@code The desired endpoint does not exist}); a method the
 * route does not take with 405 and an {@code Allow} header. {@code HEAD} is answered wherever
 * {@code GET} is, and {@code OPTIONS} everywhere (docs/rest.md). Every route needs a key by its
 * {@link AccessRule} ({@link AccessRule#BY_METHOD} unless it says otherwise), except the paths
 * declared {@linkplain Builder#open open}.
 */
public final class Router {

    /**
     * One route.
     *
     * @param name     the endpoint's name in logs and metrics ({@code feed}, {@code poll}, ...)
     * @param methods  the methods it takes; a route taking {@code GET} takes {@code HEAD} too, answered
     *                 as {@code GET} without the body (Netty's codec leaves the body out); every route
     *                 takes {@code OPTIONS}, answered with its {@code Allow} header ({@link #options})
     * @param endpoint what answers
     * @param access   the access its calls need when keys are configured
     */
    public record Route(String name, Set<HttpMethod> methods, Endpoint endpoint, AccessRule access) {

        public Route {
            Set<HttpMethod> taken = new HashSet<>(methods);
            if (taken.contains(HttpMethod.GET)) {
                taken.add(HttpMethod.HEAD);
            }
            taken.add(HttpMethod.OPTIONS);
            methods = Set.copyOf(taken);
        }

        /** The access {@code call} needs: asking which methods the route takes only reads. */
        public Access accessNeeded(HttpCall call) {
            return call.method().equals(HttpMethod.OPTIONS) ? Access.READ : access.needed(call);
        }

        /** What {@code call} is answered: its endpoint's answer, or the route's methods for {@code OPTIONS}. */
        public HttpAnswer answer(HttpCall call) throws RefusedRequestException {
            return call.method().equals(HttpMethod.OPTIONS) ? options() : endpoint.answer(call);
        }

        /** 200 with an empty body and the {@code Allow} header, as Flask answers {@code OPTIONS}. */
        private HttpAnswer options() {
            return HttpAnswer.text(200, HttpAnswer.PLAIN_TEXT, "").withHeader("Allow", allow());
        }

        /** The {@code Allow} header of the route. */
        public String allow() {
            return methods.stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
        }
    }

    private final Map<String, Route> exact;
    private final Map<String, Route> prefixes;
    private final List<String> open;

    private Router(Map<String, Route> exact, Map<String, Route> prefixes, List<String> open) {
        this.exact = Map.copyOf(exact);
        this.prefixes = new LinkedHashMap<>(prefixes);
        this.open = List.copyOf(open);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The route serving {@code call}. */
    public Route find(HttpCall call) throws RefusedRequestException {
        Route route = exact.get(call.path());
        if (route == null) {
            route = byPrefix(call.path());
        }
        if (route == null) {
            throw new RefusedRequestException(Refusal.UNKNOWN_PATH, null);
        }
        if (!route.methods().contains(call.method())) {
            throw new MethodNotAllowed(route);
        }
        return route;
    }

    /** Whether {@code path} is an open path or under one, served to anyone without a key. */
    public boolean isOpen(String path) {
        for (String tree : open) {
            if (path.equals(tree) || path.startsWith(tree + "/")) {
                return true;
            }
        }
        return false;
    }

    private Route byPrefix(String path) {
        Route best = null;
        int bestLength = -1;
        for (Map.Entry<String, Route> entry : prefixes.entrySet()) {
            if (path.startsWith(entry.getKey()) && entry.getKey().length() > bestLength) {
                best = entry.getValue();
                bestLength = entry.getKey().length();
            }
        }
        return best;
    }

    /** A 405 refusal that knows which methods the path takes. */
    public static final class MethodNotAllowed extends RefusedRequestException {

        private static final long serialVersionUID = 1L;

        private final String allow;
        private final String endpoint;

        MethodNotAllowed(Route route) {
            super(Refusal.METHOD, null);
            this.allow = route.allow();
            this.endpoint = route.name();
        }

        /** The name of the route that does not take the method. */
        public String endpoint() {
            return endpoint;
        }

        /** The {@code Allow} header to answer with. */
        public String allow() {
            return allow;
        }
    }

    /** Collects the routes. */
    public static final class Builder {

        private final Map<String, Route> exact = new LinkedHashMap<>();
        private final Map<String, Route> prefixes = new LinkedHashMap<>();
        private final List<String> open = new ArrayList<>();

        /** Serves {@code path} exactly; its calls need a key by {@link AccessRule#BY_METHOD}. */
        public Builder route(String path, String name, Endpoint endpoint, HttpMethod... methods) {
            return route(path, name, AccessRule.BY_METHOD, endpoint, methods);
        }

        /** Serves {@code path} exactly; its calls need the key {@code access} says. */
        public Builder route(String path, String name, AccessRule access, Endpoint endpoint, HttpMethod... methods) {
            exact.put(path, new Route(name, Set.of(methods), endpoint, access));
            return this;
        }

        /** Serves every path starting with {@code prefix}; its calls need a key by {@link AccessRule#BY_METHOD}. */
        public Builder prefix(String prefix, String name, Endpoint endpoint, HttpMethod... methods) {
            prefixes.put(prefix, new Route(name, Set.of(methods), endpoint, AccessRule.BY_METHOD));
            return this;
        }

        /**
         * Serves {@code path} and every path under it ({@code path/...}) to anyone, whatever route
         * answers it, now or added later.
         */
        public Builder open(String path) {
            open.add(path);
            return this;
        }

        public Router build() {
            return new Router(exact, prefixes, open);
        }
    }
}
