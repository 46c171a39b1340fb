package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A Redis monitor that cannot start once Redis is connected (a plugin's factory that fails, docs/extending.md) says so
 * in its health, rather than living on as if it were still connecting to Redis.
 */
@ExtendWith(SharedStack.class)
class FailedStartTest {

    @Test
    void aPluginThatCannotBeMadeTakesTheMonitorsLivenessDownNamingIt(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "PLUGINS", "{" + UncreatableFactory.class.getName() + ": 600}")) {
            MonitorFixture.Running monitor = fixture.startMonitor();

            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> monitor.health().checkLive().status() == Health.Status.DOWN);

            Health start = monitor.health().checkLive().checks().get("start");
            assertEquals(Health.Status.DOWN, start.status());
            assertTrue(start.detail().contains(UncreatableFactory.class.getName()) && start.detail().contains("no licence file"), start.detail());
            Health redis = monitor.health().check().checks().get("redis");
            assertEquals(Health.Status.DOWN, redis.status());
            assertTrue(redis.detail().startsWith("the Redis monitor could not start"), redis.detail());
        }
    }
}
