package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;

/** Discovery finds the domain queues of a spider, through its active domains, their publication and the keyspace scan. */
class DiscoveryTest {

    private final RedisConnection redis = PrivateRedis.connection();
    private final String spider = "discovery" + UUID.randomUUID().toString().replace("-", "");
    private final Set<String> found = ConcurrentHashMap.newKeySet();
    private final Discovery discovery = new Discovery(redis, spider, Duration.ofSeconds(1), Duration.ofMinutes(1), found::addAll);

    @AfterEach
    void close() {
        discovery.close();
        redis.sync().del(Keyspace.activeDomains(spider), Keyspace.ACTIVATION_MARKER.fill(spider), Keyspace.QUEUE_SCAN_TURN.fill(spider),
                spider + ":example.com:queue", spider + ":later.com:queue");
    }

    /**
     * A queue a Python Kafka monitor wrote, out of the index: the node whose turn it is scans the keyspace and puts its
     * domain in the index, where another node reads it; that node does not scan within the period (a queue written after
     * the first node's scan is not found by it).
     */
    @Test
    void oneNodeAPeriodScansForQueuesOutOfTheIndexAndTheOthersReadThemFromIt() {
        redis.sync().zadd(spider + ":example.com:queue", -100, "{\"url\": \"http://example.com/\"}");
        Set<String> foundByOther = ConcurrentHashMap.newKeySet();

        discovery.lookOnce();
        redis.sync().zadd(spider + ":later.com:queue", -100, "{\"url\": \"http://later.com/\"}");
        try (Discovery other = new Discovery(redis, spider, Duration.ofSeconds(1), Duration.ofMinutes(1), foundByOther::addAll)) {
            other.lookOnce();
        }

        assertEquals(Set.of("example.com"), found);
        assertEquals(Set.of("example.com"), foundByOther);
        assertEquals(List.of("example.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
    }

    @Test
    void activeDomainsRedisRefusesLeaveTheKeyspaceScanToFindTheQueues() {
        redis.sync().set(Keyspace.activeDomains(spider), "not a sorted set");
        redis.sync().zadd(spider + ":example.com:queue", -100, "{\"url\": \"http://example.com/\"}");

        discovery.lookOnce();

        assertEquals(Set.of("example.com"), found);
    }

    /** Looks every minute only: the domain can be found in time by its publication alone. */
    @Test
    void aDomainFiledIntoAnEmptyQueueIsFoundAtOnceNotAtTheNextLook() throws Exception {
        try (Discovery listening = new Discovery(redis, spider, Duration.ofMinutes(1), Duration.ofMinutes(1), found::addAll)) {
            listening.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(listening::listening);
            listening.awaitLooksAsked(Duration.ofSeconds(10));

            QueueKey queue = new QueueKey(spider, "example.com");
            new Enqueuer(redis, false).enqueue(EnqueueRequest.of(queue, "{\"url\": \"http://example.com/\"}",
                    new CrawlFields("app", "c1", 1, "0")));

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> found.contains("example.com"));
        }
    }
}
