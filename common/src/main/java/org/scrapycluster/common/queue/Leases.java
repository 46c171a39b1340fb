package org.scrapycluster.common.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * The life of a leased request after {@link ThrottledQueue#handOut}: acknowledged when done,
 * renewed while a slow fetch goes on, or returned to its queue by the reaper when its holder
 * stopped answering (docs/architecture.md "Leases"). Deadlines are on the Redis server clock.
 */
public final class Leases {

    private static final LuaScript ACK = LuaScript.load("ack", LuaScript.KEYSPACE, "clock", "member", "accounting", "lease");
    private static final LuaScript RENEW = LuaScript.load("renew", "clock");
    private static final LuaScript REAP = LuaScript.load("reap", LuaScript.KEYSPACE, "clock", "member", "accounting", "lease", "batch");

    private final RedisConnection redis;

    public Leases(RedisConnection redis) {
        this.redis = redis;
    }

    /**
     * Acknowledges a lease: deletes it, takes the request out of its crawl's pending count and,
     * when a page was published, counts the page.
     *
     * @param crawl the request's crawl fields as read from its member with {@link CrawlFields#ofHandedOut}
     *              (empty for a request of no crawl, which counts nothing)
     * @return whether the lease was still held; false when it was already acknowledged, expired and
     *         returned to its queue, or purged by a stop
     */
    public CompletableFuture<Boolean> ackAsync(String spiderId, String leaseId, Optional<CrawlFields> crawl, boolean pagePublished) {
        return ackAllAsync(spiderId, List.of(new Ack(leaseId, crawl, pagePublished))).thenApply(held -> held.getFirst());
    }

    /**
     * Acknowledges several leases of the spider in one script call, each as {@link #ackAsync} does; the
     * counters of a crawl are written once for all of its requests.
     *
     * @return for each lease, in order, whether it was still held
     */
    public CompletableFuture<List<Boolean>> ackAllAsync(String spiderId, List<Ack> acks) {
        if (acks.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        String[] args = new String[2 + acks.size() * Ack.ARGUMENTS];
        args[0] = spiderId;
        args[1] = Integer.toString(acks.size());
        for (int i = 0; i < acks.size(); i++) {
            acks.get(i).writeTo(args, 2 + i * Ack.ARGUMENTS);
        }
        return ACK.<List<Long>>run(redis, ScriptOutputType.MULTI, new String[] {Keyspace.leased(spiderId), Keyspace.leases(spiderId)}, args)
                .thenApply(held -> held.stream().map(one -> one == 1).toList());
    }

    /**
     * One acknowledgement: the lease, its request's crawl fields (empty for a request of no crawl) and
     * whether a page was published.
     */
    public record Ack(String leaseId, Optional<CrawlFields> crawl, boolean pagePublished) {

        private static final int ARGUMENTS = 2 + CrawlFields.ARGUMENTS;

        private void writeTo(String[] args, int at) {
            args[at] = leaseId;
            args[at + 1] = pagePublished ? "1" : "0";
            crawl.ifPresentOrElse(fields -> fields.writeTo(args, at + 2), () -> CrawlFields.writeNone(args, at + 2));
        }
    }

    /** The answer to a {@link #renewAsync renewal}, waited for as long as a Redis command is. */
    public Optional<Instant> renewed(CompletableFuture<Optional<Instant>> renewal) {
        return redis.await(renewal);
    }

    /**
     * Moves the lease's deadline to now + {@code extension}; several are sent together, and their answers read with
     * {@link #renewed}.
     *
     * @return the new deadline, or empty when the lease is no longer held (the request may already
     *         be back in its queue: the holder should not publish twice)
     */
    public CompletableFuture<Optional<Instant>> renewAsync(String spiderId, String leaseId, Duration extension) {
        return RENEW.<Long>run(redis, ScriptOutputType.INTEGER, new String[] {Keyspace.leased(spiderId), Keyspace.leases(spiderId)},
                leaseId, Long.toString(Math.max(1, extension.toMillis())))
                .thenApply(deadline -> deadline == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(deadline)));
    }

    /**
     * Returns up to {@code maxBatch} leases of the spider whose deadline has passed to their queues,
     * with their score, and marks their domains active again. Safe to run from several processes.
     */
    public ReapResult reap(String spiderId, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("a reap batch must be at least 1, got " + maxBatch);
        }
        List<Long> reply = REAP.call(redis, ScriptOutputType.MULTI,
                new String[] {Keyspace.leased(spiderId), Keyspace.leases(spiderId)},
                spiderId, Integer.toString(maxBatch));
        return new ReapResult(reply.get(0).intValue(), reply.get(1).intValue(), reply.get(1) >= maxBatch);
    }

    /** The number of leases of the spider now held. */
    public long count(String spiderId) {
        return redis.sync().zcard(Keyspace.leases(spiderId));
    }

    /**
     * What one reap call did.
     *
     * @param returned requests put back into their queues
     * @param handled  due leases handled (a request already queued again is not duplicated)
     * @param more     whether the batch was full, so more leases may be due
     */
    public record ReapResult(int returned, int handled, boolean more) {
    }
}
