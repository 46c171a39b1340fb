package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

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
        assertTrue(new QueueDirectory(redis).spidersWithLeases().containsAll(java.util.Set.of(link, wandering)));

        try (LeaseReaper reaper = new LeaseReaper(redis, Duration.ofMillis(100), Duration.ofMinutes(1), 50)) {
            reaper.start();
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() ->
                    redis.sync().zcard(new QueueKey(link, "ex1.com").key()) == 1
                            && redis.sync().zcard(new QueueKey(wandering, "ex1.com").key()) == 1);
        }
        assertEquals(0, new Leases(redis).count(link));
    }
}
