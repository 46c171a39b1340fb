package org.scrapycluster.common.stats;

import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;

import io.lettuce.core.Range;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;

/**
 * Reads statistics for the Redis monitor's stats answers (docs/compatibility.md §3.8), whoever wrote
 * them: {@code …:lifetime} keys are HyperLogLogs ({@code PFCOUNT}); a rolling window, named by the
 * original's name, is the sum of our HASH of buckets at {@code buckets:<name>} (summed inside the window)
 * and what the name itself holds: a Python component's or {@code STATS_ORIGINAL_KEYS}' sorted set of event
 * times (counted inside the window, which its writer also trims), or the HASH of buckets an earlier build of
 * ours kept there. The window length is the name's last segment.
 */
public final class StatsReader {

    private static final String LIFETIME = Keyspace.STATS_LIFETIME.suffix();

    private final RedisConnection redis;
    private final Clock clock;

    public StatsReader(RedisConnection redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /**
     * The value of a statistics key by its original name, or empty when neither form of it exists or it is not a
     * counter (a heartbeat).
     */
    public OptionalLong value(String key) {
        if (key.endsWith(LIFETIME)) {
            return RedisErrors.unlessWrongType(
                    () -> redis.sync().exists(key) == 0 ? OptionalLong.empty() : OptionalLong.of(redis.sync().pfcount(key)),
                    OptionalLong.empty());
        }
        long window = windowOf(key);
        long nowMillis = clock.millis();
        OptionalLong atName = valueAt(key, window, nowMillis);
        if (window == 0) {
            return atName;
        }
        OptionalLong buckets = valueAt(Keyspace.statsBuckets(key), window, nowMillis);
        if (atName.isEmpty() || buckets.isEmpty()) {
            return atName.isEmpty() ? buckets : atName;
        }
        return OptionalLong.of(atName.getAsLong() + buckets.getAsLong());
    }

    /** The globs of both forms of the statistics keys matching {@code pattern}: at their names, and their buckets. */
    public static List<String> patterns(String pattern) {
        return List.of(pattern, Keyspace.STATS_BUCKETS.globOf(pattern));
    }

    /** The original names of the keys of {@link #patterns}' two globs, {@code atNames} and {@code buckets}, each once. */
    public static SortedSet<String> names(List<String> atNames, List<String> buckets) {
        SortedSet<String> keys = new TreeSet<>(atNames);
        buckets.forEach(bucketsKey -> Keyspace.windowOfBuckets(bucketsKey).ifPresent(keys::add));
        return keys;
    }

    /** What {@code key} holds, as a window of {@code window} seconds (0: not a window) at {@code nowMillis}. */
    private OptionalLong valueAt(String key, long window, long nowMillis) {
        return switch (redis.sync().type(key)) {
            case "hash" -> OptionalLong.of(window > 0
                    ? new RollingWindowCounter(key, window).sum(redis.sync().hgetall(key), Math.floorDiv(nowMillis, 1000))
                    : redis.sync().hvals(key).stream().mapToLong(StatsReader::parse).sum());
            case "zset" -> OptionalLong.of(window > 0
                    ? redis.sync().zcount(key, Range.create(nowMillis / 1000.0 - window, Double.POSITIVE_INFINITY))
                    : redis.sync().zcard(key));
            default -> OptionalLong.empty();
        };
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
