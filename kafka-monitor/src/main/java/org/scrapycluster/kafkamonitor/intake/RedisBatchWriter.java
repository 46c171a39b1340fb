package org.scrapycluster.kafkamonitor.intake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueResult;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the Redis effects of a batch of accepted requests in one pipeline, in order: requests
 * filed with the {@link Enqueuer} (many per script call), job keys {@link JobKeys#write written} with
 * their waiting lists, plain keys {@code SET}; then,
 * once the enqueues have answered, one {@code RPUSH jobs:signal} of every job key written (each
 * once, with the timeout keys of the requests that were queued), trimmed to the newest
 * {@value #SIGNALS_KEPT} entries so that the list stays bounded when no Redis monitor runs. An enqueue or a key
 * can be written twice without harm, so a batch that failed half-way is written again, but for the jobs and keys Redis
 * confirmed ({@link Writes#posted}): a Redis monitor may have answered a job meanwhile, and would answer it again.
 * A job or key write Redis refuses ({@link RedisErrors#isRefusal}: a job's waiting list full, or of another type)
 * refuses its request only, and its job is not signalled. A {@code jobs:signal} Redis refuses (of another type: edited
 * by hand) fails no request, since a signal only hastens a job the Redis monitors' scan finds anyway: it is said once
 * ({@link RefusedKeys}).
 */
final class RedisBatchWriter {

    /** Signals kept in {@code jobs:signal}; older ones are dropped (the Redis monitors' key scan still finds their jobs). */
    static final long SIGNALS_KEPT = 100_000;

    /** Enqueues sent in one script call: few enough for Redis to stay responsive, many enough to save the cost of a call each. */
    static final int ENQUEUES_PER_CALL = 100;

    private static final Logger LOG = LoggerFactory.getLogger(RedisBatchWriter.class);

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final RefusedKeys refusedSignal = new RefusedKeys(LOG, "Signalling the job keys written to the Redis monitors");

    /** @param fifo whether requests of equal priority are queued first in, first out ({@code QUEUE_FIFO}) */
    RedisBatchWriter(RedisConnection redis, boolean fifo) {
        this.redis = redis;
        this.enqueuer = new Enqueuer(redis, fifo);
    }

    /**
     * Asks Redis whether it answers.
     *
     * @throws RedisException when it does not
     */
    void ping() {
        redis.sync().ping();
    }

    /** Starts the writes of a batch, to which requests are added as they are decided. */
    Writes start() {
        return new Writes();
    }

    /**
     * The writes of one batch in flight, sent while the next records are decided so that Redis
     * works meanwhile: enqueues go in groups of {@value #ENQUEUES_PER_CALL} per script call, and a
     * {@code SET} first sends the enqueues before it, so that Redis applies everything in the order
     * the requests came.
     */
    final class Writes {

        private final List<RequestWrites> requests = new ArrayList<>();
        private final List<Enqueued> unsent = new ArrayList<>(ENQUEUES_PER_CALL);

        /** Adds the effects of one accepted request. */
        void add(Handling.Accept handling) {
            add(handling, Set.of());
        }

        /**
         * Adds the effects of one accepted request but those of {@code posted}, jobs and keys an earlier attempt wrote
         * (its enqueues go again: their results settle the request). A job left out is still signalled.
         */
        void add(Handling.Accept handling, Set<RedisEffect> posted) {
            RequestWrites ofRequest = new RequestWrites();
            for (RedisEffect effect : handling.effects()) {
                if (posted.contains(effect)) {
                    if (effect instanceof RedisEffect.SetJob job) {
                        ofRequest.jobKeys.add(job.key());
                    }
                    continue;
                }
                switch (effect) {
                    case RedisEffect.Enqueue enqueue -> {
                        Enqueued enqueued = new Enqueued(enqueue);
                        ofRequest.enqueues.add(enqueued);
                        unsent.add(enqueued);
                        if (unsent.size() == ENQUEUES_PER_CALL) {
                            sendEnqueues();
                        }
                    }
                    case RedisEffect.SetJob job -> {
                        sendEnqueues();
                        ofRequest.writes.add(new Write(job, JobKeys.write(redis, job.key(), job.value())));
                        ofRequest.jobKeys.add(job.key());
                    }
                    case RedisEffect.SetKey set -> {
                        sendEnqueues();
                        ofRequest.writes.add(new Write(set, redis.async().set(set.key(), set.value()).toCompletableFuture()));
                    }
                    case RedisEffect.AddMember add -> {
                        sendEnqueues();
                        ofRequest.writes.add(new Write(add, redis.async().sadd(add.key(), add.member()).toCompletableFuture()));
                    }
                }
            }
            requests.add(ofRequest);
        }

        private void sendEnqueues() {
            if (unsent.isEmpty()) {
                return;
            }
            List<Enqueued> call = List.copyOf(unsent);
            unsent.clear();
            CompletableFuture<List<EnqueueResult>> results = enqueuer.fileBatchAsync(call.stream().map(e -> e.effect().request()).toList());
            for (int i = 0; i < call.size(); i++) {
                int index = i;
                call.get(i).result = results.thenApply(list -> list.get(index));
            }
        }

        /**
         * Sends what is left, waits for Redis to confirm every write, then signals the job keys written.
         *
         * @return for each request, in the order added, what Redis made of it: the result of its enqueue when it had
         *         one (a request already queued or seen by its crawl is not queued twice, one of a stopped or expired
         *         crawl is refused, one a key of which Redis refuses is too), or why Redis refused another write of it
         * @throws RedisException when an enqueue failed, or another write for a reason but a refusal; some may have
         *         been applied
         */
        List<Filed> finish() {
            sendEnqueues();
            try {
                return confirmAndSignal();
            } catch (RedisException e) {
                awaitEveryWrite(); // before the batch is written again, so that posted() knows each one that went
                throw e;
            }
        }

        private void awaitEveryWrite() {
            for (RequestWrites ofRequest : requests) {
                for (Write write : ofRequest.writes) {
                    try {
                        redis.await(write.future());
                    } catch (RedisException e) {
                        // not posted: written again
                    }
                }
            }
        }

        /**
         * The jobs and keys of this attempt Redis confirmed, once {@link #finish} ended (both when it returned and when
         * it threw): an attempt after a failure leaves them out.
         */
        Set<RedisEffect> posted() {
            Set<RedisEffect> posted = Collections.newSetFromMap(new IdentityHashMap<>());
            for (RequestWrites ofRequest : requests) {
                for (Write write : ofRequest.writes) {
                    if (write.future().isDone() && !write.future().isCompletedExceptionally()) {
                        posted.add(write.effect());
                    }
                }
            }
            return posted;
        }

        private List<Filed> confirmAndSignal() {
            Set<String> signals = new LinkedHashSet<>();
            List<Filed> results = new ArrayList<>(requests.size());
            for (RequestWrites ofRequest : requests) {
                EnqueueResult decisive = null;
                for (Enqueued enqueued : ofRequest.enqueues) {
                    EnqueueResult result = redis.await(enqueued.result);
                    if (result.timeoutWritten()) {
                        enqueued.effect().timeoutKey().ifPresent(signals::add);
                    }
                    if (decisive == null || severity(result.outcome()) > severity(decisive.outcome())) {
                        decisive = result;
                    }
                }
                // confirmed before the signal goes: a script Redis no longer has (after a restart or a failover) is sent
                // again after its first try, and a signal pipelined behind that try would reach a monitor before the job
                Optional<String> refusal = refusal(ofRequest.writes);
                if (refusal.isEmpty()) {
                    signals.addAll(ofRequest.jobKeys);
                }
                results.add(new Filed(Optional.ofNullable(decisive), refusal));
            }
            List<CompletableFuture<?>> signalled = signals.isEmpty() ? List.of() : List.of(
                    redis.async().rpush(Keyspace.JOBS_SIGNAL, signals.toArray(String[]::new)).toCompletableFuture(),
                    redis.async().ltrim(Keyspace.JOBS_SIGNAL, -SIGNALS_KEPT, -1).toCompletableFuture());
            for (CompletableFuture<?> signal : signalled) {
                refusedSignal.await(redis, Keyspace.JOBS_SIGNAL, signal);
            }
            return results;
        }

        /** Why Redis refused one of {@code writes}, once all have answered; empty when it applied them all. */
        private Optional<String> refusal(List<Write> writes) {
            Optional<String> refusal = Optional.empty();
            for (Write write : writes) {
                try {
                    redis.await(write.future());
                } catch (RedisException e) {
                    if (!RedisErrors.isRefusal(e)) {
                        throw e;
                    }
                    refusal = refusal.or(() -> Optional.of(e.getMessage()));
                }
            }
            return refusal;
        }
    }

    /**
     * What Redis made of one request's writes.
     *
     * @param enqueued the result of its enqueue, when it had one
     * @param refusal  why Redis refused a write of its job or of a key, when it did
     */
    record Filed(Optional<EnqueueResult> enqueued, Optional<String> refusal) {
    }

    /** The writes of one request: its enqueues, its other writes, and the job keys among them. */
    private static final class RequestWrites {

        private final List<Enqueued> enqueues = new ArrayList<>(1);
        private final List<Write> writes = new ArrayList<>(0);
        private final List<String> jobKeys = new ArrayList<>(0);
    }

    /** A job or key write of a batch: the effect, and Redis' answer to it. */
    private record Write(RedisEffect effect, CompletableFuture<?> future) {
    }

    /** An enqueue of a batch, and its result once it is sent. */
    private static final class Enqueued {

        private final RedisEffect.Enqueue effect;
        private CompletableFuture<EnqueueResult> result;

        Enqueued(RedisEffect.Enqueue effect) {
            this.effect = effect;
        }

        RedisEffect.Enqueue effect() {
            return effect;
        }
    }

    /** Which outcome speaks for a request with several enqueues: a refusal, else a no-op, else queued. */
    private static int severity(EnqueueOutcome outcome) {
        return switch (outcome) {
            case QUEUED -> 0;
            case ALREADY_QUEUED, DUPLICATE -> 1;
            case BLACKLISTED, EXPIRED, INVALID, KEY_CONFLICT, PAGE_LIMIT, DOMAIN_BLACKLISTED, NOT_HTTP, INVALID_URL -> 2;
        };
    }
}
