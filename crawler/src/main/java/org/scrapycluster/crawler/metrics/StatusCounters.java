package org.scrapycluster.crawler.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.stats.StatsCounter;
import org.scrapycluster.common.stats.StatsRecorder;

/**
 * The crawler's Redis statistics (docs/compatibility.md §4.12): for each status code of
 * {@code STATS_RESPONSE_CODES}, rolling windows {@code stats:crawler:<host>:<spider>:<code>:<seconds>} and a
 * lifetime count {@code …:<code>:lifetime}, counted for every response of that status that reaches the
 * spider; and the 504 counters, which also count every failed download attempt (the original's log-retry
 * middleware), whether or not 504 is in the list. Nothing is counted when {@code STATS_STATUS_CODES} is
 * off. Thread-safe.
 */
public final class StatusCounters {

    /** The status a failed download attempt is counted as. */
    public static final int FAILED_DOWNLOAD = 504;

    private final Map<Integer, StatsCounter> counters = new HashMap<>();
    private final Set<Integer> counted;

    /**
     * @param recorder  writes the counts to Redis
     * @param hostname  this host's name
     * @param spiderId  the node's spider
     * @param codes     {@code STATS_RESPONSE_CODES}
     * @param windows   the window lengths of {@code STATS_TIMES}, in seconds
     * @param enabled   {@code STATS_STATUS_CODES}
     */
    public StatusCounters(StatsRecorder recorder, String hostname, String spiderId, List<Integer> codes, List<Long> windows,
            boolean enabled) {
        counted = enabled ? Set.copyOf(codes) : Set.of();
        if (enabled) {
            for (int code : counted) {
                counters.put(code, recorder.counter(prefix(hostname, spiderId, code), windows));
            }
            counters.computeIfAbsent(FAILED_DOWNLOAD, code -> recorder.counter(prefix(hostname, spiderId, code), windows));
        }
    }

    /** A response of {@code status} reached the spider. */
    public void response(int status) {
        if (counted.contains(status)) {
            counters.get(status).increment();
        }
    }

    /** A download attempt failed with a network error. */
    public void failedDownload() {
        StatsCounter counter = counters.get(FAILED_DOWNLOAD);
        if (counter != null) {
            counter.increment();
        }
    }

    private static String prefix(String hostname, String spiderId, int code) {
        return Keyspace.CRAWLER_STATS.fill(hostname, spiderId, String.valueOf(code));
    }
}
