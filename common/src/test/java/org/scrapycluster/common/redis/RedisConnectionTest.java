package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

class RedisConnectionTest {

    @Test
    void failsFastWhileRedisIsAwayAndReconnectsByItself() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-outage"));
             RedisConnection redis = TestRedis.connect(server)) {
            redis.sync().set("k", "v");
            server.stop();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !redis.isConnected());
            long started = System.nanoTime();
            assertThrows(RedisException.class, () -> redis.sync().get("k"));
            assertThrows(RedisException.class, () -> redis.await(redis.async().get("k")));
            assertTrue(System.nanoTime() - started < Duration.ofSeconds(2).toNanos(),
                    "rejected at once instead of waiting for the timeout");

            server.restart();
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> redis.sync().set("k", "back").equals("OK"));
            assertEquals("back", redis.sync().get("k"));
        }
    }

    @Test
    void saysClearlyWhenRedisCannotBeReachedAtStart() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-absent"))) {
            server.stop();
            assertThrows(RedisConnectionException.class, () -> TestRedis.connect(server));
        }
    }

    @Test
    void endpointNeverPrintsThePassword() {
        RedisEndpoint endpoint = new RedisEndpoint("redis.example", 6380, 2, "secret", true, Duration.ofSeconds(3));
        assertEquals("rediss://redis.example:6380/2", endpoint.toString());
        assertFalse(endpoint.toString().contains("secret"));
        assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.of("h", 0));
        assertNull(new RedisEndpoint("h", 1, 0, "", false, Duration.ofSeconds(1)).password());
    }

    @Test
    void endpointFromAServicesSettings() {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("REDIS_HOST", "redis.internal", "REDIS_PORT", "6380", "REDIS_DB", "3", "REDIS_PASSWORD", "pw",
                        "REDIS_SOCKET_TIMEOUT", "2")));
        assertEquals(new RedisEndpoint("redis.internal", 6380, 3, "pw", false, Duration.ofSeconds(2)), RedisEndpoint.from(settings));

        Settings badPort = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("REDIS_PORT", "70000")));
        SettingsException e = assertThrows(SettingsException.class, () -> RedisEndpoint.from(badPort));
        assertEquals("The Redis settings of the kafka-monitor cannot be used: Redis port must be 1-65535, got 70000", e.getMessage());
    }
}
