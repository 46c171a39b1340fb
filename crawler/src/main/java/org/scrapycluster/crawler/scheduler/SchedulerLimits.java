package org.scrapycluster.crawler.scheduler;

import java.time.Duration;

/**
 * How much a node's scheduler takes on at once.
 *
 * @param maxInFlight        requests handed out and not finished, over all domains ({@code CONCURRENT_REQUESTS})
 * @param maxPerDomain       the same per domain ({@code CONCURRENT_REQUESTS_PER_DOMAIN})
 * @param maxHandOutsAwaited hand-out decisions awaited at once, one domain each ({@code SCHEDULER_HANDOUT_CALLS})
 * @param lease              how long a hand-out is leased before it returns to its queue ({@code LEASE_SECONDS})
 * @param retryAfterFailure  how long a domain waits after a hand-out call failed (Redis unavailable)
 */
public record SchedulerLimits(int maxInFlight, int maxPerDomain, int maxHandOutsAwaited, Duration lease,
        Duration retryAfterFailure) {

    public SchedulerLimits {
        if (maxInFlight < 1 || maxPerDomain < 1 || maxHandOutsAwaited < 1) {
            throw new IllegalArgumentException("concurrency limits must be at least 1: " + maxInFlight + ", " + maxPerDomain
                    + ", " + maxHandOutsAwaited);
        }
        if (lease.toMillis() < 1000) {
            throw new IllegalArgumentException("a lease must last at least a second, got " + lease);
        }
    }
}
