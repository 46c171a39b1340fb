package org.scrapycluster.embedded.origin;

import java.util.HashMap;
import java.util.Map;

/** Which route serves a path: the one mounted at the path itself, else at its nearest parent ({@code /p} serves {@code /p/7}). */
final class RouteTable {

    private final Map<String, Route> routes = new HashMap<>();

    void mount(String path, Route route) {
        if (!path.startsWith("/") || path.length() > 1 && path.endsWith("/")) {
            throw new IllegalArgumentException("mount routes at paths like /slow, not '" + path + "'");
        }
        routes.put(path, route);
    }

    Route find(String path) {
        String candidate = path;
        while (true) {
            Route route = routes.get(candidate);
            if (route != null) {
                return route;
            }
            int slash = candidate.lastIndexOf('/');
            if (slash <= 0) {
                return null;
            }
            candidate = candidate.substring(0, slash);
        }
    }
}
