package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class QueueDirectoryTest {

    private final RedisConnection redis;
    private final QueueDirectory directory;
    private final String spider = TestRedis.unique("qd");

    QueueDirectoryTest(RedisConnection redis) {
        this.redis = redis;
        directory = new QueueDirectory(redis);
    }

    @Test
    void theCrawlAccountingOfAnAppOrCrawlNamedQueueIsNoQueueButASpiderNamedCrawlsHasQueues() {
        redis.sync().zadd(Keyspace.queue(spider, "a.com"), -1, "{}");
        redis.sync().sadd(Keyspace.crawlsOfApp(spider, "queue"), "c1");
        redis.sync().hset(Keyspace.ACCOUNTING.fill(spider, "app", "queue"), "pending", "1");
        redis.sync().zadd(Keyspace.queue("crawls", spider + ".com"), -1, "{}");

        List<String> found = allQueues().stream().map(QueueKey::key).filter(key -> key.contains(spider)).toList();

        assertEquals(List.of("crawls:" + spider + ".com:queue", spider + ":a.com:queue"), found);
        assertTrue(directory.queues("crawls").stream().noneMatch(queue -> queue.domain().equals(spider)),
                "crawls:<spider>:queue is the app's crawls, not a queue");
    }

    @Test
    void theKeysOfACrawlNamedQueueAreNoQueues() {
        redis.sync().zadd(Keyspace.queue(spider, "a.com"), -1, "{}");
        // a crawl whose crawlid is "queue": its dupefilter, page-limit counters and timeout key end in :queue too
        redis.sync().sadd(Keyspace.dupefilter(spider, "queue"), "fp");
        redis.sync().set(Keyspace.domainMaxPageFilter(spider, "a.com", "queue"), "1");
        redis.sync().set(Keyspace.globalPageCountFilter(spider, "a.com", "queue"), "1");
        redis.sync().set(Keyspace.TIMEOUT.fill(spider, "app", "queue"), "1900000000");
        redis.sync().set(Keyspace.INFO_APP.fill(spider, "queue"), "u1"); // an info request of the app "queue"
        // another writer's queue, under a domain spelt as ours never is, is still a queue
        redis.sync().zadd(Keyspace.queue(spider, "例え.jp"), -1, "{}");
        List<String> queues = List.of(spider + ":a.com:queue", spider + ":例え.jp:queue");

        assertEquals(queues, directory.queues(spider).stream().map(QueueKey::key).toList());
        assertEquals(queues, allQueues().stream().map(QueueKey::key).filter(key -> key.contains(spider)).toList());
    }

    /** Every queue of the keyspace, as a caller with a pass of its own finds them among the keys it matched. */
    private List<QueueKey> allQueues() {
        return directory.queuesAmong(RedisKeys.scan(redis, Keyspace.QUEUE.glob()));
    }
}
