package org.scrapycluster.redismonitor.crawl;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlPurger;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Ends a crawl for stop and expire: adds {@code <appid>||<crawlid>} to {@code <spiderid>:blacklist}
 * first — from then on no request of the crawl is enqueued, and every crawler node drops its
 * requests at the next hand-out, so the crawl stops cluster-wide at once — then removes its
 * queued and leased requests and, once they are counted (with those crawlers dropped meanwhile), forgets the crawl
 * ({@link CrawlCounts#forget}): its stop or expired answer is its last word, not followed by a
 * completion announcement, and an app's info does not read it again (nor, for a crawl a Python
 * service touched, lose its fast path to it for good). Its accounting, which now says nothing is
 * pending, answers info on the crawl itself for a day, then expires (docs/redis-monitor.md "stop").
 */
final class CrawlStopper {

    private static final int PURGE_BATCH = 1000;

    private final RedisConnection redis;
    private final CrawlPurger purger;
    private final CrawlCounts counts;

    CrawlStopper(RedisConnection redis) {
        this.redis = redis;
        this.purger = new CrawlPurger(redis, PURGE_BATCH);
        this.counts = new CrawlCounts(redis);
    }

    /**
     * Blacklists and purges {@code crawl}.
     *
     * @return the requests that will not be crawled: those the purge removed from the queues (and an earlier attempt cut
     *         off midway), and those crawlers dropped from them meanwhile, once they found the crawl blacklisted
     */
    long stop(CrawlRef crawl) {
        redis.sync().sadd(Keyspace.blacklist(crawl.spiderId()), crawl.blacklistEntry());
        purger.purge(crawl);
        CrawlCounts.Forgotten forgotten = counts.forget(crawl);
        return forgotten.purged() + forgotten.dropped();
    }
}
