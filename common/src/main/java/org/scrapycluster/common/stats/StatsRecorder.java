package org.scrapycluster.common.stats;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import org.scrapycluster.common.concurrent.Completions;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts a service's events in memory and writes all its counters to Redis in one pipeline every
 * flush interval (a second), so that 20,000 events a second cost a handful of Redis calls.
 *
 * <p>While Redis is unreachable it keeps counting: rolling-window counts are kept per bucket (so
 * they land in the right bucket later) and dropped only once they have left their window; lifetime
 * events are kept as a number and written later, at most {@value #LIFETIME_PER_FLUSH} per flush.
 * A write Redis did not answer in time may still land (a Redis stalled longer than the command timeout runs it when it
 * comes back), so what it carried is sent again as it was, and counted once: lifetime events under the same members,
 * which a HyperLogLog counts once; a window's counts as the same numbered write, which the window takes once
 * ({@link RollingWindowCounter#addAsync}), or in the original's form under the same members. A window's later counts
 * wait until Redis confirmed that write, so that it takes a writer's writes in order. The outage is logged once, and
 * its end once. {@link #close()} stops the flush thread after a last flush.
 *
 * <p>A key Redis refuses (a lifetime key that is no HyperLogLog, a window bucket that holds no number, written by
 * hand) is no outage: its counts of that flush are dropped, it is logged once, and the other keys are written
 * (docs/operations.md "Keys Redis refuses").
 *
 * <p>Rolling windows are written as HASHes of time buckets at {@code buckets:<window name>}, apart from the
 * original's name so that a Python service, which {@code ZADD}s there, never meets one
 * ({@link RollingWindowCounter}); or, with {@code STATS_ORIGINAL_KEYS}, as the original's sorted sets of one member
 * per event at the original's name ({@link EventWindow}), for a Python Redis monitor to read. The first flush
 * writes every window of a counter, events or not, so that a HASH an earlier build of ours left at the
 * original's name is folded into the buckets at once rather than at the window's next event.
 */
public final class StatsRecorder implements AutoCloseable {

    /** Lifetime events written per flush at most, so that a long backlog does not stall Redis. */
    public static final int LIFETIME_PER_FLUSH = 200_000;

    private static final Logger LOG = LoggerFactory.getLogger(StatsRecorder.class);
    private static final int PFADD_CHUNK = 10_000;

    private final RedisConnection redis;
    private final String nodeId;
    private final Clock clock;
    private final Duration interval;
    private final List<StatsCounter> counters = new CopyOnWriteArrayList<>();
    /** Counts of a window not sent yet: held back behind an unconfirmed write of that window, or kept in an outage. */
    private final Map<RollingWindowCounter, Map<Long, Long>> unwrittenBuckets = new HashMap<>();
    /** Window writes Redis did not confirm, sent again as they were before any later counts of their window. */
    private final Map<RollingWindowCounter, WindowWrite> unconfirmed = new HashMap<>();
    private final Map<LifetimeCounter, Long> unwrittenLifetime = new HashMap<>();
    /** Lifetime events named ({@code <node id>:<sequence>}) by a write that failed: sent again under the same names. */
    private final Map<LifetimeCounter, Deque<Names>> unwrittenNames = new HashMap<>();
    private final Set<String> foreignKeys = ConcurrentHashMap.newKeySet();
    /** The windows written at least once: a flush with no events for them need not write them again. */
    private final Set<RollingWindowCounter> written = new HashSet<>();
    private final OutageReporter outage = new OutageReporter(LOG, "Writing statistics");
    private final RefusedKeys refused = new RefusedKeys(LOG, "Writing statistics");
    private final Ticker ticker = new Ticker("stats-flush");
    private final boolean originalKeys;
    private long sequence;

    /** A recorder writing rolling windows as time buckets. */
    public StatsRecorder(RedisConnection redis, String nodeId, Clock clock, Duration interval) {
        this(redis, nodeId, clock, interval, false);
    }

    /**
     * @param redis        the connection
     * @param nodeId       this process's id (uuid12), making lifetime and event members unique across processes
     * @param clock        the clock events are counted by
     * @param interval     how often counts are written
     * @param originalKeys {@code STATS_ORIGINAL_KEYS}: rolling windows as the original's sorted sets
     */
    public StatsRecorder(RedisConnection redis, String nodeId, Clock clock, Duration interval, boolean originalKeys) {
        this.redis = redis;
        this.nodeId = nodeId;
        this.clock = clock;
        this.interval = interval;
        this.originalKeys = originalKeys;
    }

    /**
     * A counter at {@code keyPrefix} ({@code stats:kafka-monitor:total}) with a rolling window for
     * each of {@code windowSeconds} ({@code …:900}) and a lifetime count ({@code …:lifetime}).
     */
    public StatsCounter counter(String keyPrefix, List<Long> windowSeconds) {
        StatsCounter counter = new StatsCounter(keyPrefix, windowSeconds, clock);
        counters.add(counter);
        return counter;
    }

    /** Starts writing every interval in the background. */
    public void start() {
        ticker.every(interval, interval, this::flushQuietly);
    }

    /**
     * Writes everything counted so far in one pipeline and waits for it.
     *
     * @return whether everything was written; what was not is kept for the next flush
     */
    public synchronized boolean flush() {
        boolean complete = awaitAll(send());
        if (complete && heldBack()) {
            // counts held back behind a write sent again, which Redis has now confirmed
            complete = awaitAll(send());
        }
        if (complete) {
            outage.succeeded();
        }
        return complete;
    }

    /** Waits for {@code writes}: whether all were written, or refused; what was not is kept for the next flush. */
    private boolean awaitAll(List<Write> writes) {
        boolean complete = true;
        for (Write write : writes) {
            try {
                redis.await(write.result());
                refused.answered(write.key());
            } catch (RedisCommandInterruptedException e) {
                // Stopping: not an outage; the counts are kept for the last flush of close().
                write.keep().run();
                complete = false;
                Thread.currentThread().interrupt();
            } catch (RedisException e) {
                if (RedisErrors.isRefusal(e)) {
                    refused.refused(write.key(), (RedisCommandExecutionException) e);
                    continue;
                }
                write.keep().run();
                outage.failed(e);
                complete = false;
            }
        }
        return complete;
    }

    /** Sends everything counted so far in one pipeline, without waiting: the writes under way. */
    private synchronized List<Write> send() {
        long now = Math.floorDiv(clock.millis(), 1000);
        List<Write> writes = new ArrayList<>();
        for (StatsCounter counter : counters) {
            Map<Long, Long> bySecond = counter.drain();
            for (RollingWindowCounter window : counter.windows()) {
                writeWindow(window, bySecond, now).ifPresent(writes::add);
            }
            long events = bySecond.values().stream().mapToLong(Long::longValue).sum();
            writes.addAll(writeLifetime(counter.lifetime(), events));
        }
        return writes;
    }

    /**
     * The write of {@code window}: one Redis did not confirm, as it was, or else the counts of {@code bySecond} and those
     * not sent yet that are still inside the window; none when a window of buckets written before has no counts.
     */
    private Optional<Write> writeWindow(RollingWindowCounter window, Map<Long, Long> bySecond, long now) {
        // by bucket start, or by second when each event is written (the original's form)
        Map<Long, Long> buckets = unwrittenBuckets.computeIfAbsent(window, w -> new HashMap<>());
        bySecond.forEach((second, events) -> buckets.merge(originalKeys ? second : window.bucketStart(second), events, Long::sum));
        long oldest = originalKeys ? EventWindow.oldestSecond(window, now) : window.oldestBucket(now);
        buckets.keySet().removeIf(bucket -> bucket < oldest);
        WindowWrite write = unconfirmed.remove(window);
        if (write == null) {
            unwrittenBuckets.remove(window);
            if (buckets.isEmpty() && !originalKeys && written.contains(window)) {
                // nothing new; the original's form is written all the same, to trim the events that left the window
                return Optional.empty();
            }
            long events = buckets.values().stream().mapToLong(Long::longValue).sum();
            write = new WindowWrite(new TreeMap<>(buckets), sequence + 1);
            sequence += originalKeys ? events : 1;
        } else if (buckets.isEmpty()) {
            unwrittenBuckets.remove(window);
        }
        written.add(window);
        String key = originalKeys ? window.key() : window.bucketsKey();
        CompletableFuture<Boolean> add = originalKeys
                ? EventWindow.addAsync(redis, window, write.buckets(), now, nodeId, write.number())
                : window.addAsync(redis, write.buckets(), now, nodeId, write.number());
        CompletableFuture<Boolean> result = add.thenApply(ours -> {
            if (!ours && foreignKeys.add(key)) {
                LOG.warn("Statistics key {} holds another type (written by another component); its counts are dropped until it is gone",
                        key);
            } else if (ours && !foreignKeys.isEmpty() && foreignKeys.remove(key)) {
                LOG.info("Statistics key {} is written again", key);
            }
            return ours;
        });
        WindowWrite sent = write;
        return Optional.of(new Write(key, result, () -> {
            written.remove(window);
            unconfirmed.put(window, sent);
        }));
    }

    /**
     * The writes of {@code lifetime}'s events: those a failed write named first, under the same names, then {@code events}
     * and those not named yet, named now; at most about {@value #LIFETIME_PER_FLUSH} events a flush.
     */
    private List<Write> writeLifetime(LifetimeCounter lifetime, long events) {
        Deque<Names> named = unwrittenNames.computeIfAbsent(lifetime, counter -> new ArrayDeque<>());
        long backlog = unwrittenLifetime.getOrDefault(lifetime, 0L) + events;
        long budget = LIFETIME_PER_FLUSH;
        List<Write> writes = new ArrayList<>();
        while (budget > 0 && !named.isEmpty()) {
            Names names = named.poll();
            writes.add(writeNames(lifetime, names));
            budget -= names.count();
        }
        while (budget > 0 && backlog > 0) {
            int chunk = (int) Math.min(Math.min(backlog, budget), PFADD_CHUNK);
            Names names = new Names(sequence + 1, chunk);
            sequence += chunk;
            backlog -= chunk;
            budget -= chunk;
            writes.add(writeNames(lifetime, names));
        }
        unwrittenLifetime.put(lifetime, backlog);
        return writes;
    }

    private Write writeNames(LifetimeCounter lifetime, Names names) {
        List<String> members = new ArrayList<>(names.count());
        for (long n = names.first(); n < names.first() + names.count(); n++) {
            members.add(nodeId + ":" + n);
        }
        return new Write(lifetime.key(), lifetime.addAsync(redis, members),
                () -> unwrittenNames.computeIfAbsent(lifetime, counter -> new ArrayDeque<>()).add(names));
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.error("Writing statistics failed", e);
        }
    }

    /** Stops the flush thread, then writes what is left if Redis answers ({@link RedisConnection#answers()}). */
    @Override
    public void close() {
        ticker.close();
        if (!redis.answers() || !flush()) {
            LOG.warn("Statistics counted since the last successful write are lost: Redis is unavailable at shutdown");
        }
    }

    /**
     * Stops the flush thread, waiting for a flush in progress at most what {@code budget} grants an ordinary wait, then
     * writes what is left as one of the service's last writes ({@link RedisConnection#writeAtStop}): statistics not
     * written are noted in the budget, and lost. A key Redis refuses is passed over, as by every flush.
     */
    public void close(StopBudget budget) {
        ticker.close(budget.waitFor(Ticker.STOP_TIMEOUT));
        redis.writeAtStop(budget, "the statistics counted since their last write, lost", () -> sendAll().thenCompose(sent ->
                // counts held back behind a write sent again, which Redis has now confirmed
                heldBack() ? sendAll() : CompletableFuture.completedFuture(null)));
    }

    /** Whether counts of a window wait to be sent (behind a write sent again, or in an outage). */
    private synchronized boolean heldBack() {
        return !unwrittenBuckets.isEmpty();
    }

    /** Sends everything counted so far: done when every write is, a refusal passed over. */
    private CompletableFuture<Void> sendAll() {
        return CompletableFuture.allOf(send().stream().map(StatsRecorder::refusalPassedOver).toArray(CompletableFuture[]::new));
    }

    /** A write's result, which a refusal of its key completes normally. */
    private static CompletableFuture<?> refusalPassedOver(Write write) {
        return write.result().exceptionallyCompose(error -> RedisErrors.isRefusal(Completions.cause(error))
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.failedFuture(error));
    }

    /** One pipelined write to {@code key} and how to keep its counts when Redis is unavailable. */
    private record Write(String key, CompletableFuture<?> result, Runnable keep) {
    }

    /**
     * A window's counts by bucket start (or second) as one numbered write: {@code number} is the write's number in the
     * HASH form, or the first event's sequence number in the original's form.
     */
    private record WindowWrite(Map<Long, Long> buckets, long number) {
    }

    /** The lifetime event names {@code <node id>:<first>} to {@code <node id>:<first + count - 1>}. */
    private record Names(long first, int count) {
    }
}
