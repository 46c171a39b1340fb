package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * How the accounting notices processes that keep none (docs/operations.md "Mixed Python and Java
 * clusters"): a queue whose length differs from the one our scripts left, and a hand-out of a
 * request that was never counted.
 */
@ExtendWith(TestRedis.class)
class ForeignWritersTest {

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final CrawlCounts counts;
    private final String spider = TestRedis.unique("foreign");
    private final QueueKey queue = new QueueKey(spider, "a.com");

    ForeignWritersTest(RedisConnection redis) {
        this.redis = redis;
        this.enqueuer = new Enqueuer(redis, false);
        this.counts = new CrawlCounts(redis);
    }

    @Test
    void aQueuePoppedBehindTheAccountingsBackMakesTheCrawlForeignForGood() {
        CrawlRef crawl = new CrawlRef(spider, "app", "c1");
        for (int i = 0; i < 2; i++) {
            assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue,
                    Members.feedItem("https://a.com/" + i, "app", "c1", 1, 0))));
        }
        assertEquals(Map.of("a.com", "2"), redis.sync().hgetall(Keyspace.queueLengths(spider)));
        assertEquals(2, counts.trusted(crawl).orElseThrow().pending(), "only our scripts touched it");

        String popped = redis.sync().zrange(queue.key(), 0, 0).getFirst();
        redis.sync().zremrangebyrank(queue.key(), 0, 0);
        assertTrue(counts.trusted(crawl).isEmpty(), "the queue is shorter than the accounting knows");
        assertTrue(counts.foreign(crawl));

        redis.sync().zadd(queue.key(), -1, popped);
        assertTrue(counts.trusted(crawl).isEmpty(), "a filing that restores the length does not make it right again");
    }

    @Test
    void aHandOutOfAnUncountedRequestMarksItsCrawlWhichRetiresOnlyOnceItsQueuesWereRead() {
        CrawlRef crawl = new CrawlRef(spider, "app", "python");
        redis.sync().zadd(queue.key(), -1, Members.feedItem("https://a.com/", "app", "python", 1, 0));
        assertFalse(counts.foreign(crawl), "nothing of ours has seen it yet");

        HandOut handed = new ThrottledQueue(redis).handOut(queue, new ThrottleSpec("open-" + spider, 60, 10_000, false),
                Duration.ofMinutes(1), "holder");
        assertInstanceOf(HandOut.HandedOut.class, handed);
        assertTrue(counts.foreign(crawl));
        assertTrue(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()) != null, "its completion is looked for");

        Instant later = Instant.now().plusSeconds(60);
        assertTrue(counts.retireIfIdle(crawl, later).isEmpty(), "its accounting cannot say it is done");
        assertEquals(new Retirement.Retired(0), redis.await(counts.retireIfIdleAsync(crawl, later, true)));
        assertFalse(counts.foreign(crawl), "retired");
    }
}
