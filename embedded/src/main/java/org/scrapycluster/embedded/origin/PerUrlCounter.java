package org.scrapycluster.embedded.origin;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts requests per domain and request target, for routes that answer differently on later attempts. */
final class PerUrlCounter {

    private final ConcurrentHashMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    /** Counts this request and returns how many came for its URL before it. */
    int previous(Exchange exchange) {
        String key = exchange.domainIndex() + " " + exchange.request().uri();
        return counts.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
    }
}
