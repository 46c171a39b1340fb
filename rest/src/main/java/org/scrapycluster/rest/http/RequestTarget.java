package org.scrapycluster.rest.http;

import java.util.List;
import java.util.Locale;

import org.scrapycluster.common.domain.AllowedHosts;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * The path and the host a request names, read as RFC 9112 (section 3.2) reads them: from the request line in its
 * usual form ({@code GET /access}) and the {@code Host} header, or from the request line alone in absolute form
 * ({@code GET http://127.0.0.1:5343/access}), whose authority stands for the host whatever the header says.
 *
 * @param path the decoded path
 * @param host the host and port the request is for, or null for an HTTP/1.0 request that names none
 */
record RequestTarget(String path, String host) {

    /**
     * @throws IllegalArgumentException saying why the request is not valid HTTP: it is not HTTP/1 ({@code HTTP/2.0} on
     *                                  a request line is not HTTP/2), its path is not valid percent-encoding, it has
     *                                  two {@code Host} headers, names a host that is not a host and port, or it
     *                                  is an HTTP/1.1 request that names no host
     */
    static RequestTarget of(HttpRequest request) {
        if (request.protocolVersion().majorVersion() != 1) {
            throw new IllegalArgumentException("The gateway speaks HTTP/1.1 and HTTP/1.0, not " + request.protocolVersion().text() + ".");
        }
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1) {
            throw new IllegalArgumentException("The request has more than one Host header.");
        }
        String uri = request.uri();
        int authority = authorityStart(uri);
        if (authority > 0) {
            int end = indexOfAny(uri, authority, "/?#");
            String rest = uri.substring(end);
            return new RequestTarget(path(rest.startsWith("/") ? rest : "/" + rest), host(uri.substring(authority, end)));
        }
        if (hosts.isEmpty() && request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            throw new IllegalArgumentException("An HTTP/1.1 request must name its host in a Host header.");
        }
        return new RequestTarget(path(uri), hosts.isEmpty() ? null : host(hosts.getFirst()));
    }

    /**
     * What a log line shows of a request's target ({@code uri} as its request line has it), as it shows a routed call's
     * path: without the scheme and authority of the absolute form (user information included) and without the query,
     * which may carry a token; not decoded, as it may not decode.
     */
    static String shown(String uri) {
        int authority = authorityStart(uri);
        int start = authority > 0 ? indexOfAny(uri, authority, "/?#") : 0;
        int end = indexOfAny(uri, start, "?#");
        return end == start ? "/" : uri.substring(start, end);
    }

    /** Where the authority of a target in absolute form ({@code http://host/path}) starts; -1 for a target of another form. */
    private static int authorityStart(String uri) {
        return uri.regionMatches(true, 0, "http://", 0, 7) ? 7 : uri.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
    }

    /** {@code host}, lower-cased, when it may be a host and port ({@link AllowedHosts#isHostAndPort}). */
    private static String host(String host) {
        if (!AllowedHosts.isHostAndPort(host)) {
            throw new IllegalArgumentException("The request's host is not a host name or address, with a port or without.");
        }
        return host.toLowerCase(Locale.ROOT);
    }

    /** The index of the first of {@code stops} in {@code uri} from {@code from}; its length when there is none. */
    private static int indexOfAny(String uri, int from, String stops) {
        for (int i = from; i < uri.length(); i++) {
            if (stops.indexOf(uri.charAt(i)) >= 0) {
                return i;
            }
        }
        return uri.length();
    }

    private static String path(String uri) {
        try {
            return new QueryStringDecoder(uri).path();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The path is not valid percent-encoding.", e);
        }
    }
}
