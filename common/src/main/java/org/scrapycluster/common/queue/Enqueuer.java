package org.scrapycluster.common.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Files requests into their domain queues: the Kafka monitor's seeds and a crawler's discovered
 * links, retries, redirects and returned requests. One Lua call ({@code lua/enqueue.lua}) files a
 * whole batch — a page's links — checking for each request, in the original's order, the crawl's
 * dupefilter (registering the fingerprint) when asked, its page limits, the crawl blacklist, a
 * domain refusal and the crawl's expiry; then it adds the member with score −priority, marks the
 * domain active ({@code ZADD NX <spiderid>:active_domains}), counts the request in its crawl's
 * accounting and, when asked, writes the crawl's timeout key. Calls in flight together are
 * pipelined, so {@link #enqueueAll} files thousands of requests per round trip.
 */
public final class Enqueuer {

    private static final LuaScript ENQUEUE = LuaScript.load("enqueue", LuaScript.KEYSPACE, "clock", "member", "accounting", "batch");
    private static final int FIELDS = 16;
    private static final int BATCH = 500;

    private final RedisConnection redis;
    private final boolean firstInFirstOut;

    /**
     * @param redis           the connection
     * @param firstInFirstOut whether requests of equal priority come out in arrival order (the score
     *                        gets a fraction below 1 that grows with time) rather than in member order
     *                        as in the original (docs/compatibility.md W15)
     */
    public Enqueuer(RedisConnection redis, boolean firstInFirstOut) {
        this.redis = redis;
        this.firstInFirstOut = firstInFirstOut;
    }

    public CompletableFuture<EnqueueOutcome> enqueueAsync(EnqueueRequest request) {
        return enqueueBatchAsync(List.of(request)).thenApply(List::getFirst);
    }

    /** {@link #enqueueAsync}, waiting for the answer. */
    public EnqueueOutcome enqueue(EnqueueRequest request) {
        return redis.await(enqueueAsync(request));
    }

    /**
     * Files {@code requests} in one script call, atomically; the outcomes are in the same order.
     * Requests may go to queues of different domains and spiders.
     */
    public CompletableFuture<List<EnqueueOutcome>> enqueueBatchAsync(List<EnqueueRequest> requests) {
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        String[] keys = new String[requests.size()];
        String[] args = new String[2 + requests.size() * FIELDS];
        args[0] = firstInFirstOut ? "1" : "0";
        args[1] = Integer.toString(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            EnqueueRequest request = requests.get(i);
            keys[i] = request.queue().key();
            fill(args, 2 + i * FIELDS, request);
        }
        return ENQUEUE.<List<String>>run(redis, ScriptOutputType.MULTI, keys, args)
                .thenApply(outcomes -> outcomes.stream().map(EnqueueOutcome::valueOf).toList());
    }

    /** Files all of {@code requests}, in batches pipelined together; the outcomes are in the same order. */
    public List<EnqueueOutcome> enqueueAll(List<EnqueueRequest> requests) {
        List<CompletableFuture<List<EnqueueOutcome>>> pending = new ArrayList<>();
        for (int from = 0; from < requests.size(); from += BATCH) {
            pending.add(enqueueBatchAsync(requests.subList(from, Math.min(requests.size(), from + BATCH))));
        }
        List<EnqueueOutcome> outcomes = new ArrayList<>(requests.size());
        for (CompletableFuture<List<EnqueueOutcome>> part : pending) {
            outcomes.addAll(redis.await(part));
        }
        return outcomes;
    }

    private static void fill(String[] args, int at, EnqueueRequest request) {
        QueueKey queue = request.queue();
        EnqueueRequest.Dupefilter dupefilter = request.dupefilter().orElse(null);
        args[at] = request.member();
        args[at + 1] = queue.spiderId();
        args[at + 2] = queue.domain();
        args[at + 3] = dupefilter == null ? "" : dupefilter.key();
        args[at + 4] = dupefilter == null ? "" : dupefilter.fingerprint();
        args[at + 5] = dupefilter == null ? "0" : Long.toString(dupefilter.ttl().getSeconds());
        args[at + 6] = request.writeTimeout() ? "1" : "0";
        args[at + 7] = request.domainRefused() ? "1" : "0";
        for (int i = 0; i < EnqueueRequest.MAX_PAGE_LIMITS; i++) {
            int base = at + 8 + i * 4;
            if (i < request.pageLimits().size()) {
                EnqueueRequest.PageLimit limit = request.pageLimits().get(i);
                args[base] = limit.key();
                args[base + 1] = Long.toString(limit.limit());
                args[base + 2] = Long.toString(limit.ttl().getSeconds());
                args[base + 3] = limit.refreshWhenReached() ? "1" : "0";
            } else {
                args[base] = "";
                args[base + 1] = "0";
                args[base + 2] = "0";
                args[base + 3] = "0";
            }
        }
    }
}
