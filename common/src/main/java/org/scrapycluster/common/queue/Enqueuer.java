package org.scrapycluster.common.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Files requests into their domain queues: the Kafka monitor's seeds and a crawler's discovered
 * links, retries, redirects and returned requests. One Lua call per request
 * ({@code lua/enqueue.lua}) refuses requests of blacklisted or expired crawls, checks and registers
 * the fingerprint in a dupefilter when asked, adds the member with score −priority, marks the domain
 * active ({@code ZADD NX <spiderid>:active_domains}), counts the request in its crawl's accounting
 * and, when asked, writes the crawl's timeout key. Calls in flight together are pipelined, so
 * {@link #enqueueAll} files thousands of requests per round trip.
 */
public final class Enqueuer {

    private static final LuaScript ENQUEUE = LuaScript.load("enqueue", "clock", "member", "accounting");

    private final RedisConnection redis;
    private final boolean firstInFirstOut;

    /**
     * @param redis           the connection
     * @param firstInFirstOut whether requests of equal priority come out in arrival order (the score
     *                        gets a fraction below 1 that grows with time) rather than in member order
     *                        as in the original (behaviour spec §12.1 W15)
     */
    public Enqueuer(RedisConnection redis, boolean firstInFirstOut) {
        this.redis = redis;
        this.firstInFirstOut = firstInFirstOut;
    }

    public CompletableFuture<EnqueueOutcome> enqueueAsync(EnqueueRequest request) {
        QueueKey queue = request.queue();
        String spider = queue.spiderId();
        String[] keys = {queue.key(), Keyspace.activeDomains(spider), Keyspace.blacklist(spider)};
        EnqueueRequest.Dupefilter dupefilter = request.dupefilter().orElse(null);
        return ENQUEUE.<String>run(redis, ScriptOutputType.VALUE, keys,
                        request.member(), spider, queue.domain(), firstInFirstOut ? "1" : "0",
                        dupefilter == null ? "" : dupefilter.key(),
                        dupefilter == null ? "" : dupefilter.fingerprint(),
                        dupefilter == null ? "0" : Long.toString(dupefilter.ttl().getSeconds()),
                        request.writeTimeout() ? "1" : "0")
                .thenApply(EnqueueOutcome::valueOf);
    }

    /** {@link #enqueueAsync}, waiting for the answer. */
    public EnqueueOutcome enqueue(EnqueueRequest request) {
        return redis.await(enqueueAsync(request));
    }

    /** Files all of {@code requests} in one pipeline; the outcomes are in the same order. */
    public List<EnqueueOutcome> enqueueAll(List<EnqueueRequest> requests) {
        List<CompletableFuture<EnqueueOutcome>> pending = new ArrayList<>(requests.size());
        for (EnqueueRequest request : requests) {
            pending.add(enqueueAsync(request));
        }
        List<EnqueueOutcome> outcomes = new ArrayList<>(pending.size());
        for (CompletableFuture<EnqueueOutcome> outcome : pending) {
            outcomes.add(redis.await(outcome));
        }
        return outcomes;
    }
}
