package org.scrapycluster.common.stats;

import java.time.Clock;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/**
 * Reads statistics keys for the Redis monitor's stats answers (docs/compatibility.md §3.8), whoever wrote
 * them: {@code …:lifetime} keys are HyperLogLogs ({@code PFCOUNT}); a rolling window is our HASH
 * of buckets (summed inside the window) or a Python component's sorted set of event times
 * (counted inside the window, which its writer also trims). The window length is the key's last
 * segment.
 */
public final class StatsReader {

    private static final String LIFETIME = Keyspace.STATS_LIFETIME.suffix();

    private final RedisConnection redis;
    private final Clock clock;

    public StatsReader(RedisConnection redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /** The value of a statistics key, or empty when it does not exist or is not a counter (a heartbeat). */
    public OptionalLong value(String key) {
        if (key.endsWith(LIFETIME)) {
            try {
                return redis.sync().exists(key) == 0 ? OptionalLong.empty() : OptionalLong.of(redis.sync().pfcount(key));
            } catch (RedisCommandExecutionException notHyperLogLog) {
                return OptionalLong.empty();
            }
        }
        long window = windowOf(key);
        long nowMillis = clock.millis();
        return switch (redis.sync().type(key)) {
            case "hash" -> OptionalLong.of(window > 0
                    ? new RollingWindowCounter(key, window).value(redis, Math.floorDiv(nowMillis, 1000))
                    : redis.sync().hvals(key).stream().mapToLong(StatsReader::parse).sum());
            case "zset" -> OptionalLong.of(window > 0
                    ? redis.sync().zcount(key, Range.create(nowMillis / 1000.0 - window, Double.POSITIVE_INFINITY))
                    : redis.sync().zcard(key));
            default -> OptionalLong.empty();
        };
    }

    /** The value of every counter key matching the glob {@code pattern}, by key ({@code SCAN}). */
    public SortedMap<String, Long> values(String pattern) {
        SortedMap<String, Long> values = new TreeMap<>();
        for (String key : RedisKeys.scan(redis, pattern)) {
            value(key).ifPresent(value -> values.put(key, value));
        }
        return values;
    }

    private static long windowOf(String key) {
        try {
            return Long.parseLong(key.substring(key.lastIndexOf(':') + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long parse(String count) {
        try {
            return Long.parseLong(count);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
