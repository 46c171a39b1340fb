package org.scrapycluster.rest.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Each listed crawl's pages a second: the change of its page count over the last minute of the view's readings, taken
 * from the newest reading at least a minute old, so that a view refreshing a little less often than once a minute (an
 * idle one) still has a reading to compare with, over the gap it left. Confined to the refreshing thread.
 */
final class PageRates {

    private static final long RATE_MILLIS = 60_000;

    /** Per crawl, its readings, oldest first: {millis, pages}. */
    private final Map<String, Deque<long[]>> readings = new HashMap<>();

    /**
     * Notes that {@code crawl} had counted {@code pages} at {@code nowMillis}, and answers its rate then: empty at its first
     * reading, which has nothing to compare with (a 0 would say that a crawl just listed, however busy, is still).
     */
    OptionalDouble rate(String crawl, long pages, long nowMillis) {
        Deque<long[]> history = readings.computeIfAbsent(crawl, name -> new ArrayDeque<>());
        history.addLast(new long[] {nowMillis, pages});
        while (history.size() > 2 && nowMillis - second(history)[0] >= RATE_MILLIS) {
            history.removeFirst();
        }
        if (history.size() == 1) {
            return OptionalDouble.empty();
        }
        long[] oldest = history.getFirst();
        long millis = nowMillis - oldest[0];
        return OptionalDouble.of(millis <= 0 ? 0 : Math.round(Math.max(0, pages - oldest[1]) * 1_000_000.0 / millis) / 1000.0);
    }

    /** Forgets the crawls that are not {@code listed} any more. */
    void keepOnly(Set<String> listed) {
        readings.keySet().retainAll(listed);
    }

    private static long[] second(Deque<long[]> history) {
        Iterator<long[]> oldestFirst = history.iterator();
        oldestFirst.next();
        return oldestFirst.next();
    }
}
