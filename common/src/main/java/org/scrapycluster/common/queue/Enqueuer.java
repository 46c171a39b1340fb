package org.scrapycluster.common.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Files requests into their domain queues: the Kafka monitor's seeds and a crawler's discovered
 * links, retries, redirects and returned requests. One Lua call ({@code lua/enqueue.lua}) files a
 * whole batch — a page's links — of up to {@value #MOST_PER_CALL} requests (a larger one goes in as
 * many calls, one after another, so that a page of a hundred thousand links neither holds Redis, and
 * every other client's command, for the whole page in one script, nor has all its calls' arguments in
 * memory at once), checking for each request, in
 * the original's order, the crawl's dupefilter (registering the fingerprint) when asked, its page
 * limits, the crawl blacklist, a domain refusal and the crawl's expiry; then it adds the member with score −priority, marks the
 * domain active ({@code <spiderid>:active_domains}, {@link ActiveDomains}), counts the request in its crawl's
 * accounting and, when asked, writes the crawl's timeout key. Each request's crawl fields travel
 * beside its member ({@link CrawlFields}); a request without them is {@link EnqueueOutcome#INVALID}
 * and is not sent. The caller decides how many requests a call holds: one call is one batch, up to
 * {@value #MOST_PER_CALL}.
 */
public final class Enqueuer {

    private static final LuaScript ENQUEUE = LuaScript.load("enqueue", LuaScript.KEYSPACE, "clock", "member", "accounting", "batch", "errors");
    private static final int FIELDS = 20;
    /** The most requests one script call files: a page's links in one call, a few milliseconds of Redis at most. */
    public static final int MOST_PER_CALL = 1000;

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

    /** {@link #enqueueBatchAsync} of one request, waiting for the answer. */
    public EnqueueOutcome enqueue(EnqueueRequest request) {
        return enqueueBatch(List.of(request)).getFirst();
    }

    /** {@link #enqueueBatchAsync}, waiting for the answer. */
    public List<EnqueueOutcome> enqueueBatch(List<EnqueueRequest> requests) {
        return redis.await(enqueueBatchAsync(requests));
    }

    /**
     * Files {@code requests} in one script call, atomically, or in calls of {@value #MOST_PER_CALL}, each atomic, one
     * after another when there are more; the outcomes are in the same order. Requests may go to queues of different
     * domains and spiders.
     */
    public CompletableFuture<List<EnqueueOutcome>> enqueueBatchAsync(List<EnqueueRequest> requests) {
        return fileBatchAsync(requests).thenApply(results -> results.stream().map(EnqueueResult::outcome).toList());
    }

    /**
     * {@link #enqueueBatchAsync}, answering for each request also whether it wrote its crawl's timeout key. A call is
     * sent when the one before it is answered, so that however many requests there are, Redis and the client hold one
     * call's arguments at a time.
     */
    public CompletableFuture<List<EnqueueResult>> fileBatchAsync(List<EnqueueRequest> requests) {
        if (requests.size() <= MOST_PER_CALL) {
            return enqueueInOneCall(requests);
        }
        List<EnqueueResult> results = new ArrayList<>(requests.size());
        CompletableFuture<Void> calls = CompletableFuture.completedFuture(null);
        for (int from = 0; from < requests.size(); from += MOST_PER_CALL) {
            List<EnqueueRequest> call = requests.subList(from, Math.min(requests.size(), from + MOST_PER_CALL));
            calls = calls.thenCompose(done -> enqueueInOneCall(call)).thenAccept(results::addAll);
        }
        return calls.thenApply(done -> results);
    }

    private CompletableFuture<List<EnqueueResult>> enqueueInOneCall(List<EnqueueRequest> requests) {
        List<EnqueueRequest> sent = requests.stream().filter(request -> request.fields().isPresent()).toList();
        if (sent.isEmpty()) {
            return CompletableFuture.completedFuture(Collections.nCopies(requests.size(), EnqueueResult.refused(EnqueueOutcome.INVALID)));
        }
        String[] keys = new String[sent.size()];
        String[] args = new String[2 + sent.size() * FIELDS];
        args[0] = firstInFirstOut ? "1" : "0";
        args[1] = Integer.toString(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            EnqueueRequest request = sent.get(i);
            keys[i] = request.queue().key();
            fill(args, 2 + i * FIELDS, request);
        }
        // the script's answer: one outcome per request sent (with Redis' words after a KEY_CONFLICT), then whether each
        // wrote its timeout key ('1' or '0')
        return ENQUEUE.<List<String>>run(redis, ScriptOutputType.MULTI, keys, args).thenApply(answers -> {
            String timeoutsWritten = answers.get(sent.size());
            List<EnqueueResult> results = new ArrayList<>(requests.size());
            int next = 0;
            for (EnqueueRequest request : requests) {
                if (request.fields().isEmpty()) {
                    results.add(EnqueueResult.refused(EnqueueOutcome.INVALID));
                    continue;
                }
                results.add(EnqueueResult.answered(answers.get(next), timeoutsWritten.charAt(next) == '1'));
                next++;
            }
            return results;
        });
    }

    private static void fill(String[] args, int at, EnqueueRequest request) {
        QueueKey queue = request.queue();
        EnqueueRequest.Dupefilter dupefilter = request.dupefilter().orElse(null);
        args[at] = request.member();
        args[at + 1] = queue.spiderId();
        args[at + 2] = queue.domain();
        request.fields().orElseThrow().writeTo(args, at + 3);
        args[at + 7] = dupefilter == null ? "" : dupefilter.key();
        args[at + 8] = dupefilter == null ? "" : dupefilter.fingerprint();
        args[at + 9] = dupefilter == null ? "0" : Long.toString(dupefilter.ttl().getSeconds());
        args[at + 10] = request.writeTimeout() ? "1" : "0";
        args[at + 11] = request.domainRefused() ? "1" : "0";
        for (int i = 0; i < EnqueueRequest.MAX_PAGE_LIMITS; i++) {
            int base = at + 12 + i * 4;
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
