package org.scrapycluster.kafkamonitor.intake;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

/**
 * Writes the Redis effects of a batch of accepted requests in one pipeline, in order: requests
 * filed with the {@link Enqueuer}, job keys and plain keys {@code SET}; then, once the enqueues have
 * answered, one {@code RPUSH jobs:signal} of every job key written (each once, with the timeout keys
 * of the requests that were queued), trimmed
 * to the newest {@value #SIGNALS_KEPT} entries so that the list stays bounded when no Redis monitor
 * runs. Every effect can be applied twice without harm, so a batch that failed half-way is simply
 * written again.
 */
final class RedisBatchWriter {

    /** Signals kept in {@code jobs:signal}; older ones are dropped (the Redis monitors' key scan still finds their jobs). */
    static final long SIGNALS_KEPT = 100_000;

    private final RedisConnection redis;
    private final Enqueuer enqueuer;

    RedisBatchWriter(RedisConnection redis) {
        this.redis = redis;
        this.enqueuer = new Enqueuer(redis, false);
    }

    /**
     * Writes the effects of {@code accepted} and waits for Redis to confirm all of them.
     *
     * @return for each request, in order, the outcome of its enqueue when it had one: a request
     *         already queued or seen by its crawl is not queued twice, one of a stopped or expired
     *         crawl is refused
     * @throws RedisException when any write failed; some may have been applied
     */
    List<Optional<EnqueueOutcome>> write(List<Handling.Accept> accepted) {
        List<List<Enqueued>> enqueues = new ArrayList<>(accepted.size());
        List<CompletableFuture<?>> writes = new ArrayList<>();
        Set<String> signals = new LinkedHashSet<>();
        for (Handling.Accept handling : accepted) {
            List<Enqueued> ofRequest = new ArrayList<>(1);
            for (RedisEffect effect : handling.effects()) {
                switch (effect) {
                    case RedisEffect.Enqueue enqueue -> ofRequest.add(new Enqueued(enqueue, enqueuer.enqueueAsync(enqueue.request())));
                    case RedisEffect.SetJob job -> {
                        writes.add(redis.async().set(job.key(), job.value()).toCompletableFuture());
                        signals.add(job.key());
                    }
                    case RedisEffect.SetKey set -> writes.add(redis.async().set(set.key(), set.value()).toCompletableFuture());
                }
            }
            enqueues.add(ofRequest);
        }
        List<Optional<EnqueueOutcome>> outcomes = new ArrayList<>(accepted.size());
        for (List<Enqueued> ofRequest : enqueues) {
            EnqueueOutcome decisive = null;
            for (Enqueued enqueued : ofRequest) {
                EnqueueOutcome outcome = redis.await(enqueued.outcome());
                if (outcome == EnqueueOutcome.QUEUED) {
                    enqueued.effect().timeoutKey().ifPresent(signals::add);
                }
                if (decisive == null || severity(outcome) > severity(decisive)) {
                    decisive = outcome;
                }
            }
            outcomes.add(Optional.ofNullable(decisive));
        }
        if (!signals.isEmpty()) {
            writes.add(redis.async().rpush(Keyspace.JOBS_SIGNAL, signals.toArray(String[]::new)).toCompletableFuture());
            writes.add(redis.async().ltrim(Keyspace.JOBS_SIGNAL, -SIGNALS_KEPT, -1).toCompletableFuture());
        }
        for (CompletableFuture<?> write : writes) {
            redis.await(write);
        }
        return outcomes;
    }

    /** An enqueue in flight. */
    private record Enqueued(RedisEffect.Enqueue effect, CompletableFuture<EnqueueOutcome> outcome) {
    }

    /** Which outcome speaks for a request with several enqueues: a refusal, else a no-op, else queued. */
    private static int severity(EnqueueOutcome outcome) {
        return switch (outcome) {
            case QUEUED -> 0;
            case ALREADY_QUEUED, DUPLICATE -> 1;
            case BLACKLISTED, EXPIRED, INVALID -> 2;
        };
    }
}
