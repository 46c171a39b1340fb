package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * What is left of a stopped or expired crawl once it is purged and forgotten (docs/redis-monitor.md
 * "stop"): nothing an app's info or the completion check reads, and accounting that says nothing is
 * pending until it expires, or none for a crawl a Python service touched.
 */
@ExtendWith(TestRedis.class)
class ForgottenCrawlTest {

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final CrawlCounts counts;
    private final CrawlPurger purger;
    private final String spider = TestRedis.unique("forget");
    private final QueueKey stoppedQueue = new QueueKey(spider, "a.com");
    private final QueueKey keptQueue = new QueueKey(spider, "b.com");
    private final CrawlRef stopped = new CrawlRef(spider, "app", "stopped");
    private final CrawlRef kept = new CrawlRef(spider, "app", "kept");

    ForgottenCrawlTest(RedisConnection redis) {
        this.redis = redis;
        this.enqueuer = new Enqueuer(redis, false);
        this.counts = new CrawlCounts(redis);
        this.purger = new CrawlPurger(redis, 25);
    }

    @Test
    void aStoppedCrawlLeavesItsAppsCrawlsAndItsAccountingSaysNothingIsPendingUntilItExpires() {
        fill(stopped, stoppedQueue, 30);
        fill(kept, keptQueue, 5);

        assertEquals(30, stop(stopped));
        assertTrue(counts.forget(stopped).kept(), "its accounting is left to expire");

        assertEquals(Set.of("kept"), redis.sync().smembers(Keyspace.crawlsOfApp(spider, "app")));
        assertNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, stopped.name()), "not announced complete");
        assertEquals(List.of(kept), counts.trustedApp(spider, "app").orElseThrow().stream().map(CrawlCount::crawl).toList(),
                "an app's info reads only the crawl that goes on");
        CrawlCount left = counts.trusted(stopped).orElseThrow();
        assertEquals(0, left.pending());
        assertTrue(left.domains().isEmpty());
        long ttl = redis.sync().ttl(stopped.accountingKey());
        assertTrue(ttl > 0 && ttl <= CrawlCounts.FORGOTTEN_ACCOUNTING_TTL.toSeconds(), "expires within a day: " + ttl);
        assertEquals(new PurgeResult(0, 0), purger.purge(stopped), "a second stop finds nothing, from the accounting");
    }

    @Test
    void aStoppedCrawlAPythonServiceTouchedNoLongerKeepsItsAppOffTheFastPath() {
        fill(stopped, stoppedQueue, 3);
        fill(kept, keptQueue, 2);
        // a Python crawler pops one of its requests behind the accounting's back
        redis.sync().zremrangebyrank(stoppedQueue.key(), 0, 0);
        assertTrue(counts.foreign(stopped));
        assertTrue(counts.trustedApp(spider, "app").isEmpty(), "the app is answered by reading its queues");
        assertFalse(counts.drained(stopped, Instant.now()), "a completion check's first look noted it");

        stop(stopped);
        assertFalse(counts.forget(stopped).kept(), "its accounting, which cannot answer for it, is deleted");

        assertFalse(redis.sync().sismember(Keyspace.CRAWLS_FOREIGN, stopped.name()));
        assertFalse(redis.sync().hexists(Keyspace.CRAWLS_DRAINED, stopped.name()));
        assertEquals(0, redis.sync().exists(stopped.accountingKey()));
        assertEquals(List.of(kept), counts.trustedApp(spider, "app").orElseThrow().stream().map(CrawlCount::crawl).toList(),
                "the app is answered from its accounting again");
    }

    @Test
    void forgettingTellsTheRequestsCrawlersDroppedOnceTheCrawlWasBlacklistedAndOnlyOnce() {
        fill(stopped, stoppedQueue, 30);
        fill(kept, keptQueue, 5);
        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());
        // a crawler's hand-out drops the blacklisted crawl's requests, at most MAX_DROPS_PER_DECISION at a time
        ThrottleSpec open = new ThrottleSpec("open-" + spider, 60, 10_000, false);
        HandOut.Empty empty = assertInstanceOf(HandOut.Empty.class, new ThrottledQueue(redis).pop(stoppedQueue, open));
        assertEquals(30, empty.dropped());

        assertEquals(0, purger.purge(stopped).total(), "the crawlers took them all");
        assertEquals(new CrawlCounts.Forgotten(true, 30, 0), counts.forget(stopped));
        assertEquals(new CrawlCounts.Forgotten(true, 0, 0), counts.forget(stopped), "a second stop counts them no more");
        assertNull(redis.sync().hget(kept.accountingKey(), "dropped"), "the crawl that goes on dropped nothing");
    }

    /** A stop cut off after its purge (Redis gone, the monitor stopping) is done again, and answers for what both removed. */
    @Test
    void forgettingTellsWhatAPurgeCutOffMidwayRemovedAndOnlyOnce() {
        fill(stopped, stoppedQueue, 30);
        fill(kept, keptQueue, 5);
        assertEquals(30, stop(stopped)); // and no forget: the attempt ended there

        assertEquals(0, stop(stopped), "the second attempt finds nothing left");
        assertEquals(new CrawlCounts.Forgotten(true, 0, 30), counts.forget(stopped));
        assertEquals(new CrawlCounts.Forgotten(true, 0, 0), counts.forget(stopped), "a second stop counts them no more");
        assertEquals(0, redis.sync().exists(stopped.purgedKey()));
    }

    @Test
    void aCountOfPurgedRequestsWrittenByHandAsAnotherTypeIsReplacedNotAFailedStop() {
        fill(stopped, stoppedQueue, 30);
        redis.sync().hset(stopped.purgedKey(), "written", "by hand");

        assertEquals(30, stop(stopped));
        assertEquals(new CrawlCounts.Forgotten(true, 0, 30), counts.forget(stopped));
    }

    /** Blacklists and purges {@code crawl}, as the Redis monitor's stop does before forgetting it; the requests removed. */
    private long stop(CrawlRef crawl) {
        redis.sync().sadd(Keyspace.blacklist(spider), crawl.blacklistEntry());
        return purger.purge(crawl).total();
    }

    private void fill(CrawlRef crawl, QueueKey queue, int count) {
        List<EnqueueRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(EnqueueRequest.of(queue, Members.feedItem("https://" + queue.domain() + "/" + crawl.crawlid() + "/" + i, crawl.appid(),
                    crawl.crawlid(), 1, 0)));
        }
        assertTrue(enqueuer.enqueueBatch(requests).stream().allMatch(EnqueueOutcome::queued));
    }
}
