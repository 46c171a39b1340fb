package org.scrapycluster.common.queue;

import java.util.List;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Removes a stopped or expired crawl's requests from the queues and leases, for the Redis
 * monitor's stop and expire (docs/compatibility.md §3.6, §3.7).
 *
 * <p>The caller first adds the crawl to {@code <spiderid>:blacklist}; from then on the enqueue
 * script refuses its requests and the hand-out script drops them, so no new request of the crawl
 * can appear in a queue or a lease while the purge runs, and one pass is complete (the original
 * made three passes, best effort). Leases are purged before queues, so a lease that the reaper
 * returns to its queue meanwhile is found there.
 *
 * <p>Only the domains in the crawl's accounting are visited, in bounded Lua batches
 * ({@code ZSCAN} + {@code cjson}), so the cost follows the crawl, not the whole backlog
 * (docs/compatibility.md W6). A crawl whose accounting cannot answer for it (none, or requests
 * moved by components that keep none, such as a Python crawler or Kafka monitor:
 * {@link CrawlCounts#trusted}) is purged from every queue of the spider, as the original does.
 *
 * <p>Each batch also adds what it removed from a queue to {@code purged:<spiderid>:<appid>:<crawlid>}, which {@link CrawlCounts#forget}
 * takes for the answer: a purge cut off midway (Redis gone, the monitor stopping) and done again answers for both.
 */
public final class CrawlPurger {

    private static final LuaScript PURGE = LuaScript.load("purge", LuaScript.KEYSPACE, "clock", "member", "accounting", "lease");
    private static final String DONE = "0";
    /** How long the count of what purges removed waits for the answer that takes it: a day, as a forgotten crawl's accounting. */
    private static final String PURGED_KEPT_SECONDS = Long.toString(CrawlCounts.FORGOTTEN_ACCOUNTING_TTL.toSeconds());

    private final RedisConnection redis;
    private final CrawlCounts counts;
    private final QueueDirectory directory;
    private final int batch;

    /**
     * @param redis the connection
     * @param batch members scanned per script call (bounds how long Redis is busy per call)
     */
    public CrawlPurger(RedisConnection redis, int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("a purge batch must be at least 1, got " + batch);
        }
        this.redis = redis;
        this.counts = new CrawlCounts(redis);
        this.directory = new QueueDirectory(redis);
        this.batch = batch;
    }

    /** Removes every queued and leased request of {@code crawl}; blacklist it first. */
    public PurgeResult purge(CrawlRef crawl) {
        String spider = crawl.spiderId();
        long leased = run(crawl, new String[] {Keyspace.leased(spider), Keyspace.leases(spider)}, "leases", "");
        List<QueueKey> queues = counts.trusted(crawl)
                .map(count -> count.domains().keySet().stream().map(domain -> new QueueKey(spider, domain)).toList())
                .orElseGet(() -> directory.queues(spider));
        long queued = 0;
        for (QueueKey queue : queues) {
            queued += run(crawl, new String[] {queue.key()}, "queue", queue.domain());
        }
        return new PurgeResult(queued, leased);
    }

    private long run(CrawlRef crawl, String[] keys, String mode, String domain) {
        long removed = 0;
        String cursor = DONE;
        do {
            List<Object> reply = PURGE.call(redis, ScriptOutputType.MULTI, keys, mode, cursor, Integer.toString(batch),
                    crawl.spiderId(), crawl.appid(), crawl.crawlid(), domain, PURGED_KEPT_SECONDS);
            cursor = (String) reply.get(0);
            removed += (Long) reply.get(1);
        } while (!DONE.equals(cursor));
        return removed;
    }
}
