package org.scrapycluster.common.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * A count of events in a sliding window, named by the original's key name
 * ({@code stats:<service>:<name>:<window seconds>}, {@link #key()}) and stored beside it, at
 * {@code buckets:<that name>} ({@link #bucketsKey()}), as a HASH of time buckets: field = bucket start
 * in epoch seconds, value = events in that bucket, and for each process writing it the number of its last write
 * ({@link #addAsync}). Memory is bounded (about 61 fields and one a writer) whatever the event rate; the original kept
 * one sorted-set member per event at the window's name, where
 * a Python service in the cluster still does, so the HASH must not be there (docs/differences.md, docs/operations.md
 * "Mixed Python and Java clusters").
 *
 * <p>A bucket is 1/60 of the window, at least a second. The value sums the buckets that overlap
 * the window, so it counts the events of the last {@code window} seconds plus at most one bucket
 * before them (at most 1/60 of the window too much, for example 15 s of a 900 s window). Buckets
 * that left the window are removed on every write, and the key expires one bucket after the
 * window once nothing is written.
 */
public final class RollingWindowCounter {

    /** Buckets per window. */
    public static final int BUCKETS = 60;

    private static final LuaScript ADD = LuaScript.load("stats_window");

    private final String key;
    private final String bucketsKey;
    private final long windowSeconds;
    private final long bucketSeconds;

    public RollingWindowCounter(String key, long windowSeconds) {
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("a statistics window must be at least a second, got " + windowSeconds);
        }
        this.key = key;
        this.bucketsKey = Keyspace.statsBuckets(key);
        this.windowSeconds = windowSeconds;
        this.bucketSeconds = Math.max(1, windowSeconds / BUCKETS);
    }

    /** The window's name, the original's: where the original's sorted set of events is kept. */
    public String key() {
        return key;
    }

    /** Where our HASH of time buckets is kept: {@code buckets:<}{@link #key()}{@code >}. */
    public String bucketsKey() {
        return bucketsKey;
    }

    public long windowSeconds() {
        return windowSeconds;
    }

    public long bucketSeconds() {
        return bucketSeconds;
    }

    /** The start of the bucket holding {@code epochSecond}. */
    public long bucketStart(long epochSecond) {
        return Math.floorDiv(epochSecond, bucketSeconds) * bucketSeconds;
    }

    /** The oldest bucket start still inside the window at {@code nowEpochSecond}. */
    public long oldestBucket(long nowEpochSecond) {
        return bucketStart(nowEpochSecond - windowSeconds);
    }

    /**
     * Adds counts by bucket start to {@link #bucketsKey()}, trims buckets that left the window and refreshes the expiry,
     * in one call; a HASH at {@link #key()}, written by an earlier build of ours, is folded in and deleted. The counts
     * are added unless the HASH already took write {@code number} of {@code nodeId} or a later one: a write sent again
     * after Redis answered it too late is added once.
     *
     * @param nodeId the writer, whose writes of this window are numbered in the order it sends them
     * @param number this write's number, or the number it had when first sent
     * @return true, or false when {@link #bucketsKey()} holds another type (written by hand), in which case nothing
     *         was written
     */
    public CompletableFuture<Boolean> addAsync(RedisConnection redis, Map<Long, Long> countsByBucket, long nowEpochSecond,
            String nodeId, long number) {
        List<String> args = new ArrayList<>(5 + 2 * countsByBucket.size());
        args.add(Long.toString(oldestBucket(nowEpochSecond)));
        args.add(Long.toString(windowSeconds + bucketSeconds));
        args.add(nodeId);
        args.add(Long.toString(number));
        args.add(Long.toString(nowEpochSecond));
        countsByBucket.forEach((bucket, count) -> {
            args.add(Long.toString(bucket));
            args.add(Long.toString(count));
        });
        return ADD.<Long>run(redis, ScriptOutputType.INTEGER, new String[] {bucketsKey, key}, args.toArray(String[]::new))
                .thenApply(written -> written == 1);
    }

    /**
     * Counts, bucket by bucket, the events of a window kept in the original's form instead: a sorted
     * set with one member per event scored by its epoch second, as {@code STATS_ORIGINAL_KEYS} and
     * Python components write it (docs/operations.md "Mixed Python and Java clusters"). The buckets
     * are this counter's, those inside the window at {@code nowEpochSecond}; one {@code ZCOUNT} each,
     * sent together.
     *
     * @return the events by bucket start, as the HASH form would hold them
     */
    public CompletableFuture<Map<Long, Long>> eventsByBucketAsync(RedisConnection redis, long nowEpochSecond) {
        Map<Long, CompletableFuture<Long>> counts = new TreeMap<>();
        for (long bucket = oldestBucket(nowEpochSecond); bucket <= bucketStart(nowEpochSecond); bucket += bucketSeconds) {
            Range<Long> inBucket = Range.from(Range.Boundary.including(bucket), Range.Boundary.excluding(bucket + bucketSeconds));
            counts.put(bucket, redis.async().zcount(key, inBucket).toCompletableFuture());
        }
        return CompletableFuture.allOf(counts.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<Long, Long> events = new TreeMap<>();
            counts.forEach((bucket, count) -> {
                if (count.join() > 0) {
                    events.put(bucket, count.join());
                }
            });
            return events;
        });
    }

    /** Sums the buckets of a stored hash that are inside the window at {@code nowEpochSecond}. */
    long sum(Map<String, String> buckets, long nowEpochSecond) {
        long oldest = oldestBucket(nowEpochSecond);
        long total = 0;
        for (Map.Entry<String, String> bucket : buckets.entrySet()) {
            try {
                if (Long.parseLong(bucket.getKey()) >= oldest) {
                    total += Long.parseLong(bucket.getValue());
                }
            } catch (NumberFormatException e) {
                // not a bucket of ours: ignored
            }
        }
        return total;
    }
}
