package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class HeartbeatTest {

    @Test
    void writesTheEpochWithATtlAndRemovesItOnClose(RedisConnection redis) {
        String key = "stats:" + TestRedis.unique("hb") + ":self:host1:abcdef123456";
        SettableClock clock = new SettableClock(Instant.ofEpochSecond(1_700_000_000L, 250_000_000));
        try (Heartbeat heartbeat = new Heartbeat(redis, key, Duration.ofSeconds(120), Duration.ofMillis(100), clock)) {
            heartbeat.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> redis.sync().exists(key) == 1);
            assertEquals("1700000000.250000", redis.sync().get(key));
            Long ttl = redis.sync().ttl(key);
            assertTrue(ttl > 100 && ttl <= 120, ttl.toString());
            clock.advance(Duration.ofSeconds(5));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> "1700000005.250000".equals(redis.sync().get(key)));
        }
        assertEquals(0, redis.sync().exists(key));
        assertThrows(IllegalArgumentException.class,
                () -> new Heartbeat(redis, key, Duration.ofSeconds(10), Duration.ofSeconds(10), Clock.systemUTC()));
    }
}
