package org.scrapycluster.common.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounds of a latency histogram (a timer's service level objectives), 1, 2.5 and 5 in each decade: a quantile read
 * from it is known within a factor of 2.5, with three bucket lines a decade in a scrape where Micrometer's own histogram
 * writes about twenty (docs/operations.md, "Monitoring").
 */
public final class LatencyBuckets {

    private LatencyBuckets() {
    }

    /**
     * 1, 2.5 and 5 in each decade from {@code least}, a power of ten in nanoseconds, up to {@code most}, then
     * {@code beyond} as given.
     */
    public static Duration[] decades(Duration least, Duration most, Duration... beyond) {
        long first = least.toNanos();
        if (!isPowerOfTen(first)) {
            throw new IllegalArgumentException("the least bound must be a power of ten nanoseconds, was " + least);
        }
        List<Duration> bounds = new ArrayList<>();
        for (long decade = first; decade <= most.toNanos(); decade *= 10) {
            for (long bound : new long[] {decade, decade * 5 / 2, decade * 5}) {
                if (bound <= most.toNanos()) {
                    bounds.add(Duration.ofNanos(bound));
                }
            }
        }
        bounds.addAll(List.of(beyond));
        return bounds.toArray(Duration[]::new);
    }

    private static boolean isPowerOfTen(long number) {
        long rest = number;
        while (rest > 1 && rest % 10 == 0) {
            rest /= 10;
        }
        return rest == 1;
    }
}
