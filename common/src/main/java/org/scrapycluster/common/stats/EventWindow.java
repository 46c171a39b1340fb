package org.scrapycluster.common.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Writes a rolling window in the Python original's form, for a Python Redis monitor to read with
 * {@code ZCARD} ({@code STATS_ORIGINAL_KEYS}, docs/operations.md "Mixed Python and Java clusters"):
 * a ZSET at the window's key with one member {@code <node id>:<sequence>} per event, scored by the
 * event's epoch second. Events that left the window are removed at every write, and the key
 * expires once nothing is written for a window. Its size grows with the event rate, as the
 * original's did.
 */
final class EventWindow {

    private static final LuaScript ADD = LuaScript.load("stats_events");

    private EventWindow() {
    }

    /**
     * Adds {@code eventsBySecond} to {@code window}'s key and trims it at {@code nowEpochSecond}.
     *
     * @param firstSequence the sequence number of the first event, unique for {@code nodeId}
     * @return true, or false when the key holds another type (a window of time buckets), in which
     *         case nothing was written
     */
    static CompletableFuture<Boolean> addAsync(RedisConnection redis, RollingWindowCounter window, Map<Long, Long> eventsBySecond,
            long nowEpochSecond, String nodeId, long firstSequence) {
        List<String> args = new ArrayList<>(4 + 2 * eventsBySecond.size());
        args.add(Long.toString(oldestSecond(window, nowEpochSecond)));
        args.add(Long.toString(window.windowSeconds()));
        args.add(nodeId);
        args.add(Long.toString(firstSequence));
        eventsBySecond.forEach((second, events) -> {
            args.add(Long.toString(second));
            args.add(Long.toString(events));
        });
        return ADD.<Long>run(redis, ScriptOutputType.INTEGER, new String[] {window.key()}, args.toArray(String[]::new))
                .thenApply(written -> written == 1);
    }

    /** The oldest epoch second still inside {@code window} at {@code nowEpochSecond}. */
    static long oldestSecond(RollingWindowCounter window, long nowEpochSecond) {
        return nowEpochSecond - window.windowSeconds();
    }
}
