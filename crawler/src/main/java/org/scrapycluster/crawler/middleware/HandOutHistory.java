package org.scrapycluster.crawler.middleware;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.queue.ThrottleSpec;

/**
 * The hand-outs a throttle made, as its window in Redis holds them ({@code ThrottledQueue#handOutBefore}): what a
 * node's first request of a domain is spaced from once the domain's robots.txt gives a Crawl-delay.
 */
@FunctionalInterface
public interface HandOutHistory {

    /** The latest hand-out under {@code throttle} before the one made at {@code handedOut}; empty when there is none. */
    CompletableFuture<Optional<Instant>> before(ThrottleSpec throttle, Instant handedOut);
}
