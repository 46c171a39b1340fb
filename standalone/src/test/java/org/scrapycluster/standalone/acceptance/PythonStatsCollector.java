package org.scrapycluster.standalone.acceptance;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.lettuce.core.Range;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Does to Redis what the Python original's statistics collector does for the counters of its Kafka monitor, Redis
 * monitor and crawler (docs/operations.md "What a Python process does to Redis"): a rolling window is counted with
 * {@code ZADD <window> <now> <now>} on every event, trimmed with {@code ZREMRANGEBYSCORE} and read with {@code ZCARD};
 * a lifetime counter is a HyperLogLog ({@code PFADD}, {@code PFCOUNT}). The original catches none of the errors
 * these commands raise, so a {@code WRONGTYPE} here is one that would end the Python service.
 */
final class PythonStatsCollector {

    private final RedisConnection redis;

    PythonStatsCollector(RedisConnection redis) {
        this.redis = redis;
    }

    /** One event of the rolling window {@code window} ({@code stats:kafka-monitor:total:900}), as its writer counts and trims it. */
    void increment(String window, long windowSeconds) {
        double now = System.currentTimeMillis() / 1000.0;
        redis.sync().zadd(window, now, Double.toString(now));
        redis.sync().zremrangebyscore(window, Range.create(Double.NEGATIVE_INFINITY, now - windowSeconds));
    }

    /** One event of the counter {@code counter}'s lifetime HyperLogLog. */
    void incrementLifetime(String counter, String unique) {
        redis.sync().pfadd(Keyspace.STATS_LIFETIME.fill(counter), unique);
    }

    /**
     * What the original's stats dumps read of these keys: {@code ZCARD} of a window, {@code PFCOUNT} of a lifetime
     * ({@code _dump_stats} of both monitors for their own counters, {@code _dump_crawl_stats} for every
     * {@code stats:crawler:*:*:*} with six segments).
     */
    Map<String, Long> dump(List<String> windows, List<String> lifetimes) {
        Map<String, Long> values = new TreeMap<>();
        for (String window : windows) {
            values.put(window, redis.sync().zcard(window));
        }
        for (String lifetime : lifetimes) {
            values.put(lifetime, redis.sync().pfcount(lifetime));
        }
        return values;
    }
}
