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
 * and, when asked, writes the crawl's timeout key. Calls in flight together are pipelined, and
 * {@link #enqueueManyAsync} files up to {@value #MAX_PER_CALL} requests in one script call
 * ({@code lua/enqueue_many.lua}), so {@link #enqueueAll} files thousands of requests per round trip
 * at a fraction of the cost of one call each.
 */
public final class Enqueuer {

    /** Requests filed by one script call of {@link #enqueueManyAsync} at most. */
    public static final int MAX_PER_CALL = 250;

    private static final LuaScript ENQUEUE = LuaScript.load("enqueue", "clock", "member", "accounting", "enqueue");
    private static final LuaScript ENQUEUE_MANY = LuaScript.load("enqueue_many", "clock", "member", "accounting", "enqueue");
    private static final int ARGS_PER_REQUEST = 10;

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

    /**
     * Files {@code requests}, at most {@value #MAX_PER_CALL}, in one script call, each exactly as
     * {@link #enqueueAsync} files one, in order.
     *
     * @return the outcomes, in the same order
     */
    public CompletableFuture<List<EnqueueOutcome>> enqueueManyAsync(List<EnqueueRequest> requests) {
        if (requests.size() > MAX_PER_CALL) {
            throw new IllegalArgumentException("at most " + MAX_PER_CALL + " requests per call, not " + requests.size());
        }
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<String> args = new ArrayList<>(1 + ARGS_PER_REQUEST * requests.size());
        args.add(firstInFirstOut ? "1" : "0");
        for (EnqueueRequest request : requests) {
            QueueKey queue = request.queue();
            String spider = queue.spiderId();
            EnqueueRequest.Dupefilter dupefilter = request.dupefilter().orElse(null);
            args.add(queue.key());
            args.add(Keyspace.activeDomains(spider));
            args.add(Keyspace.blacklist(spider));
            args.add(request.member());
            args.add(spider);
            args.add(queue.domain());
            args.add(dupefilter == null ? "" : dupefilter.key());
            args.add(dupefilter == null ? "" : dupefilter.fingerprint());
            args.add(dupefilter == null ? "0" : Long.toString(dupefilter.ttl().getSeconds()));
            args.add(request.writeTimeout() ? "1" : "0");
        }
        return ENQUEUE_MANY.<List<Object>>run(redis, ScriptOutputType.MULTI, new String[0], args.toArray(String[]::new))
                .thenApply(outcomes -> outcomes.stream().map(outcome -> EnqueueOutcome.valueOf(String.valueOf(outcome))).toList());
    }

    /** Files all of {@code requests} in one pipeline of {@link #enqueueManyAsync} calls; the outcomes are in the same order. */
    public List<EnqueueOutcome> enqueueAll(List<EnqueueRequest> requests) {
        List<CompletableFuture<List<EnqueueOutcome>>> pending = new ArrayList<>(requests.size() / MAX_PER_CALL + 1);
        for (int from = 0; from < requests.size(); from += MAX_PER_CALL) {
            pending.add(enqueueManyAsync(requests.subList(from, Math.min(requests.size(), from + MAX_PER_CALL))));
        }
        List<EnqueueOutcome> outcomes = new ArrayList<>(requests.size());
        for (CompletableFuture<List<EnqueueOutcome>> chunk : pending) {
            outcomes.addAll(redis.await(chunk));
        }
        return outcomes;
    }
}
