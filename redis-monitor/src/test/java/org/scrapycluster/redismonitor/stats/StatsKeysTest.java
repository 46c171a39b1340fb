package org.scrapycluster.redismonitor.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CommandStats;

/** The keys of stats answers: one pass for statistics and queues, reused for 39 times its duration. */
class StatsKeysTest {

    /** A clock that a second passes on at each look, so that every pass takes a second; moved on by hand besides. */
    private static final class SlowPasses implements InstantSource {
        private Instant now = Instant.parse("2026-11-30T00:00:00Z");

        @Override
        public synchronized Instant instant() {
            now = now.plusSeconds(1);
            return now;
        }

        synchronized void advance(Duration by) {
            now = now.plus(by);
        }
    }

    @Test
    void onePassServesStatisticsInBothFormsAndQueuesAndIsReusedWhileRecent() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("stats-keys-redis"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            redis.sync().set("stats:kafka-monitor:total:lifetime", "x");
            redis.sync().hset("buckets:stats:kafka-monitor:total:900", "1", "2");
            redis.sync().hset("buckets:stats:crawler:host:link:200:900", "1", "2");
            redis.sync().zadd("link:ex1.com:queue", 1, "a");
            redis.sync().mset(Map.of("pad:1", "x", "pad:2", "x"));
            SlowPasses clock = new SlowPasses();
            StatsKeys keys = new StatsKeys(redis, clock);

            long before = scanCalls(redis);
            assertEquals(Set.of("stats:kafka-monitor:total:lifetime", "stats:kafka-monitor:total:900"),
                    keys.statsNames("stats:kafka-monitor:*"));
            assertEquals(Set.of("stats:crawler:host:link:200:900"), keys.statsNames("stats:crawler:*"));
            assertEquals(List.of(new QueueKey("link", "ex1.com")), keys.queues());
            assertEquals(1, scanCalls(redis) - before, "one pass (of one SCAN page) for all three");

            redis.sync().zadd("link:ex2.com:queue", 1, "b");
            clock.advance(Duration.ofSeconds(30));
            assertEquals(1, keys.queues().size(), "a pass of a second is reused for 39 s");
            clock.advance(Duration.ofSeconds(10));
            assertEquals(2, keys.queues().size(), "and made again after");
        }
    }

    private static long scanCalls(RedisConnection redis) {
        return CommandStats.calls(redis.sync().info("commandstats"), "scan");
    }
}
