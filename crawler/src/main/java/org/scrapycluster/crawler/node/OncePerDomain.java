package org.scrapycluster.crawler.node;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the domains something was already said about, so that it is said once per domain: the most
 * recent {@value #CAPACITY} domains are kept, the oldest forgotten first. Thread-safe.
 */
final class OncePerDomain {

    static final int CAPACITY = 10_000;

    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    /** True the first time {@code domain} is given (or the first time since it was forgotten). */
    synchronized boolean first(String domain) {
        return seen.put(domain, Boolean.TRUE) == null;
    }
}
