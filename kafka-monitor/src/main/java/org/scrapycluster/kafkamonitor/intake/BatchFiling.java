package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.queue.EnqueueResult;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files a batch's accepted requests in Redis, whatever it takes, and settles each of its records by what became of
 * its request ({@link SeedOutcomes}): queued and logged as accepted, or rejected for the state of its crawl or for a
 * key Redis refuses. While Redis is away the batch is written again after a back-off, the consumer holding its
 * partitions meanwhile; one outage is said once ({@link OutageReporter}). Used by the consumer's thread only.
 */
final class BatchFiling {

    private static final Logger LOG = LoggerFactory.getLogger(BatchFiling.class);

    private final RedisBatchWriter writer;
    private final IntakeMetrics metrics;
    private final OutageReporter redisOutage;
    private final Consumer<Duration> hold;

    /**
     * @param redisOutage where the outages of the writes are said, and read by the health check
     * @param hold        waits the given time without taking new records
     */
    BatchFiling(RedisBatchWriter writer, IntakeMetrics metrics, OutageReporter redisOutage, Consumer<Duration> hold) {
        this.writer = writer;
        this.metrics = metrics;
        this.redisOutage = redisOutage;
        this.hold = hold;
    }

    /** Starts the writes of a batch, sent while its records are decided. */
    RedisBatchWriter.Writes start() {
        return writer.start();
    }

    /**
     * Waits for the batch's Redis writes, sent while its records were decided; when they fail,
     * writes the batch's accepted requests again until it works. Then settles their outcomes and
     * logs them. The jobs and keys Redis confirmed are not written again ({@link RedisBatchWriter.Writes#posted}). A
     * request a key of which Redis refuses ({@link RedisErrors#isRefusal}: an error it would give again,
     * not an outage, such as a job's waiting list of another type, or full) is rejected with Redis' reason, by the
     * enqueue itself or by the writer; when Redis refuses an enqueue call of the batch as a whole, the records are
     * written one at a time, and a record refused on its own is rejected, so that one record cannot hold up those
     * after it.
     */
    void file(Batch batch, RedisBatchWriter.Writes firstAttempt) {
        Backoff backoff = Backoff.standard();
        RedisBatchWriter.Writes attempt = firstAttempt;
        Set<RedisEffect> posted = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean oneByOne = false;
        while (true) {
            // told once the whole batch is written: an attempt that fails part-way is written again from its start
            List<Runnable> tellAccepted = new ArrayList<>();
            try {
                List<Batch.Entry> settled = oneByOne ? writeOneByOne(batch.entries(), posted, tellAccepted)
                        : settle(batch.entries(), attempt.finish(), tellAccepted);
                if (hasAccepted(batch)) {
                    redisOutage.succeeded();
                } else if (redisOutage.isDown()) {
                    tellWhetherRedisIsBack(); // a batch of rejected records only wrote nothing
                }
                batch.settle(settled);
                tellAccepted.forEach(Runnable::run);
                return;
            } catch (RedisException e) {
                posted.addAll(attempt.posted());
                if (RedisErrors.isRefusal(e)) {
                    LOG.atWarn().addKeyValue("error", e.getMessage())
                            .log("Redis refused an enqueue of the batch; writing its records one at a time");
                    oneByOne = true;
                    continue;
                }
                redisOutage.failed(e);
                metrics.redisRetry();
                hold.accept(backoff.nextDelay());
                if (!hasAccepted(batch)) {
                    // its records left with their partitions (a rebalance while it was held): nothing is left to write
                    tellWhetherRedisIsBack();
                    return;
                }
                if (oneByOne) {
                    continue; // writeOneByOne writes each record itself: a batch attempt would send them twice
                }
                attempt = writer.start();
                for (Batch.Entry entry : batch.entries()) {
                    if (entry.disposition() instanceof Disposition.Accepted accepted) {
                        attempt.add(accepted.handling(), posted);
                    }
                }
            }
        }
    }

    private static boolean hasAccepted(Batch batch) {
        return batch.entries().stream().anyMatch(entry -> entry.disposition() instanceof Disposition.Accepted);
    }

    /**
     * Says whether Redis answers again, as a batch that had nothing left to write could not: writing nothing succeeds
     * whether Redis is there or not.
     */
    private void tellWhetherRedisIsBack() {
        try {
            writer.ping();
            redisOutage.succeeded();
        } catch (RedisException e) {
            redisOutage.failed(e);
        }
    }

    /**
     * The batch's records, each accepted one written in a call of its own and settled; one that Redis refuses
     * is rejected with its reason. What to tell of those accepted goes to {@code tellAccepted}; the jobs and keys Redis
     * confirmed go to {@code posted}, and are not written again.
     *
     * @throws RedisException when Redis is unreachable (the batch is written again)
     */
    private List<Batch.Entry> writeOneByOne(List<Batch.Entry> entries, Set<RedisEffect> posted, List<Runnable> tellAccepted) {
        List<Batch.Entry> settled = new ArrayList<>(entries.size());
        for (Batch.Entry entry : entries) {
            if (!(entry.disposition() instanceof Disposition.Accepted accepted)) {
                settled.add(entry);
                continue;
            }
            RedisBatchWriter.Writes alone = writer.start();
            alone.add(accepted.handling(), posted);
            try {
                settled.add(settle(entry, accepted, alone.finish().getFirst(), tellAccepted));
            } catch (RedisException e) {
                if (!RedisErrors.isRefusal(e)) {
                    throw e;
                }
                settled.add(entry.settled(SeedOutcomes.refusedByRedis(accepted, e.getMessage())));
            } finally {
                posted.addAll(alone.posted()); // a record after it may fail, and the batch be written again
            }
        }
        return settled;
    }

    private List<Batch.Entry> settle(List<Batch.Entry> entries, List<RedisBatchWriter.Filed> results, List<Runnable> tellAccepted) {
        List<Batch.Entry> settled = new ArrayList<>(entries.size());
        int next = 0;
        for (Batch.Entry entry : entries) {
            settled.add(entry.disposition() instanceof Disposition.Accepted accepted
                    ? settle(entry, accepted, results.get(next++), tellAccepted) : entry);
        }
        return settled;
    }

    /**
     * An accepted record settled by what Redis made of its writes: rejected when Redis refused one, else by the result
     * of its enqueue, when it had one; when it stays accepted, its count and log line are added to {@code tellAccepted},
     * for once the batch is written.
     */
    private Batch.Entry settle(Batch.Entry entry, Disposition.Accepted accepted, RedisBatchWriter.Filed filed,
            List<Runnable> tellAccepted) {
        Optional<EnqueueResult> enqueued = filed.enqueued();
        Disposition disposition = filed.refusal().map(reason -> SeedOutcomes.refusedByRedis(accepted, reason))
                .orElseGet(() -> enqueued.map(result -> SeedOutcomes.settle(accepted, result)).orElse(accepted));
        if (disposition instanceof Disposition.Accepted done) {
            String message = done.handling().logMessage();
            String logged = enqueued.map(result -> SeedOutcomes.logMessage(result.outcome(), message)).orElse(message);
            tellAccepted.add(() -> {
                metrics.accepted(done.plugin().name());
                IntakeLog.accepted(done, logged);
            });
        }
        return entry.settled(disposition);
    }
}
