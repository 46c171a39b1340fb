package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.common.service.StopBudget;

@ExtendWith(TestRedis.class)
class LeaseReaperTest {

    private final RedisConnection redis;

    LeaseReaperTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void findsEverySpiderWithLeasesAndReturnsTheirExpiredLeases() {
        Enqueuer enqueuer = new Enqueuer(redis, false);
        ThrottledQueue throttle = new ThrottledQueue(redis);
        String link = TestRedis.unique("reapa");
        String wandering = TestRedis.unique("reapb");
        for (String spider : new String[] {link, wandering}) {
            QueueKey queue = new QueueKey(spider, "ex1.com");
            enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)));
            throttle.handOut(queue, new ThrottleSpec("open-" + spider, 60, 10, false), Duration.ofMillis(300), "n1-1");
        }

        try (LeaseReaper reaper = LeaseReaper.ofEverySpider(redis, Duration.ofMillis(100), census(), 50)) {
            reaper.start();
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() ->
                    redis.sync().zcard(new QueueKey(link, "ex1.com").key()) == 1
                            && redis.sync().zcard(new QueueKey(wandering, "ex1.com").key()) == 1);
        }
        assertEquals(0, new Leases(redis).count(link));
    }

    @Test
    void aCrawlerNodesReaperReturnsItsOwnSpidersLeasesAndScansNothing() {
        String own = TestRedis.unique("reapown");
        String other = TestRedis.unique("reapother");
        for (String spider : new String[] {own, other}) {
            QueueKey queue = new QueueKey(spider, "ex1.com");
            new Enqueuer(redis, false).enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)));
            new ThrottledQueue(redis).handOut(queue, new ThrottleSpec("open-" + spider, 60, 10, false), Duration.ofMillis(1), "n1-1");
        }

        try (LeaseReaper reaper = LeaseReaper.ofSpider(redis, own, Duration.ofMillis(100), 50)) {
            long scansBefore = TestRedis.scanCalls(redis);
            Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> reaper.reapOnce() == 1);
            assertEquals(scansBefore, TestRedis.scanCalls(redis), "no scan for other spiders");
        }
        assertEquals(1, redis.sync().zcard(new QueueKey(own, "ex1.com").key()));
        assertEquals(1, new Leases(redis).count(other), "another spider's lease is left to the Redis monitors");
        new Leases(redis).reap(other, 50);
    }

    @Test
    void aSpiderWhoseLeasesCannotBeReapedDoesNotStopTheOthers() {
        String good = TestRedis.unique("reapgood");
        String broken = TestRedis.unique("reapbroken");
        QueueKey queue = new QueueKey(good, "ex1.com");
        new Enqueuer(redis, false).enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)));
        new ThrottledQueue(redis).handOut(queue, new ThrottleSpec("open-" + good, 60, 10, false), Duration.ofMillis(200), "n1-1");
        String corrupted = Keyspace.leases(broken);
        redis.sync().set(corrupted, "not a sorted set");
        try (LeaseReaper reaper = LeaseReaper.ofEverySpider(redis, Duration.ofMillis(100), census(), 50)) {
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
                reaper.reapOnce();
                return redis.sync().zcard(queue.key()) == 1;
            });
        } finally {
            redis.sync().del(corrupted);
        }
        assertEquals(0, new Leases(redis).count(good));
    }

    private SpiderCensus census() {
        return new SpiderCensus(redis, Duration.ofMinutes(1), StopBudget.MONOTONIC);
    }
}
