package org.scrapycluster.redismonitor.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/** The queue section of stats answers and dumps leaves out a queue key Redis refuses and counts the others. */
class QueueStatsTest {

    @Test
    void aQueueKeyOfAnotherTypeIsLeftOutAndTheOthersCounted() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("queue-stats-redis"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            redis.sync().set("broken:ex1.com:queue", "not a sorted set");
            redis.sync().zadd("link:ex1.com:queue", 1.0, "a", 2.0, "b");
            redis.sync().zadd("zlink:ex2.com:queue", 1, "c");

            Map<String, Object> section = new QueueStats(redis, new StatsKeys(redis, StopBudget.MONOTONIC)).read(false);

            assertEquals(Map.of("queue_link", Map.of("spider_backlog", 2L, "num_domains", 1),
                    "queue_zlink", Map.of("spider_backlog", 1L, "num_domains", 1), "total_backlog", 3L), section);
        }
    }
}
