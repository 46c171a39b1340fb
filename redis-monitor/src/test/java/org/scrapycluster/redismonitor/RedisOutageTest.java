package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import io.lettuce.core.RedisException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A Redis monitor on a private Redis that goes away and comes back: it starts while Redis is
 * down, rides out an outage in the middle, and answers jobs again once Redis is back.
 */
@ExtendWith(SharedStack.class)
class RedisOutageTest {

    @Test
    void startsWithoutRedisAndAnswersAgainAfterAnOutage(EmbeddedStack stack) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("outage-redis"));
             MonitorFixture fixture = MonitorFixture.on(redis.port(), stack.kafkaBootstrap(), stack.zookeeperConnect(),
                     "REDIS_SOCKET_TIMEOUT", "2")) {
            redis.stop();
            MonitorFixture.Running monitor = fixture.startMonitor();
            MonitorFixture.sleep(Duration.ofSeconds(2));
            assertEquals(Health.Status.DOWN, monitor.health().check().checks().get("redis").status());
            redis.restart();
            answered(fixture, "before-the-outage");

            redis.stop();
            awaitRedisHealth(monitor, Health.Status.DOWN);
            MonitorFixture.sleep(Duration.ofSeconds(3));
            redis.restart();
            answered(fixture, "after-the-outage");
            awaitRedisHealth(monitor, Health.Status.UP);
        }
    }

    private static void answered(MonitorFixture fixture, String uuid) {
        String key = Keyspace.INFO_CRAWL.fill("spider", "app", uuid);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                fixture.post(key, uuid);
                break;
            } catch (RedisException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                MonitorFixture.sleep(Duration.ofMillis(200));
            }
        }
        fixture.answers().awaitUuid(uuid);
        fixture.awaitGone(key);
    }

    private static void awaitRedisHealth(MonitorFixture.Running monitor, Health.Status status) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (monitor.health().check().checks().get("redis").status() != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Redis health is not " + status + " after a minute");
            }
            MonitorFixture.sleep(Duration.ofMillis(100));
        }
    }
}
