package org.scrapycluster.crawler.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.StatsCounter;
import org.scrapycluster.common.stats.StatsRecorder;

/**
 * The crawler's Redis statistics (docs/compatibility.md §4.12): for each status code {@link CountedStatusCodes} counts,
 * rolling windows {@code stats:crawler:<host>:<spider>:<code>:<seconds>} and a lifetime count {@code …:<code>:lifetime},
 * counted for every response of a listed status that reaches the spider, and for 504 at every failed download attempt
 * too (the original's log-retry middleware). Thread-safe.
 */
public final class StatusCounters {

    private final Map<Integer, StatsCounter> counters = new HashMap<>();
    private final CountedStatusCodes counted;

    /**
     * @param recorder  writes the counts to Redis
     * @param hostname  this host's name
     * @param spiderId  the node's spider
     * @param counted   the codes counted ({@code STATS_STATUS_CODES}, {@code STATS_RESPONSE_CODES})
     * @param windows   the window lengths of {@code STATS_TIMES}, in seconds
     */
    public StatusCounters(StatsRecorder recorder, String hostname, String spiderId, CountedStatusCodes counted, List<Long> windows) {
        this.counted = counted;
        for (int code : counted.all()) {
            counters.put(code, recorder.counter(prefix(hostname, spiderId, code), windows));
        }
    }

    /** A response of {@code status} reached the spider. */
    public void response(int status) {
        if (counted.countsResponse(status)) {
            counters.get(status).increment();
        }
    }

    /** A download attempt failed with a network error. */
    public void failedDownload() {
        if (counted.countsFailedDownloads()) {
            counters.get(CountedStatusCodes.FAILED_DOWNLOAD).increment();
        }
    }

    private static String prefix(String hostname, String spiderId, int code) {
        return Keyspace.CRAWLER_STATS.fill(hostname, spiderId, String.valueOf(code));
    }
}
