package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class StatsReaderTest {

    private final RedisConnection redis;
    private final String service = TestRedis.unique("svc");
    private final StatsReader reader;

    StatsReaderTest(RedisConnection redis) {
        this.redis = redis;
        reader = new StatsReader(redis, Clock.systemUTC());
    }

    @Test
    void readsThePythonSortedSetWindowWithinItsWindow() {
        String key = "stats:" + service + ":total:900";
        double now = System.currentTimeMillis() / 1000.0;
        for (double at : new double[] {now - 10, now - 5, now - 2_000}) {
            redis.sync().zadd(key, at, Double.toString(at));
        }
        assertEquals(OptionalLong.of(2), reader.value(key), "the entry older than the window is not counted");
    }

    @Test
    void readsOurBucketsLifetimesAndSkipsHeartbeats() {
        StatsRecorder recorder = new StatsRecorder(redis, "node1", Clock.systemUTC(), Duration.ofSeconds(1));
        StatsCounter total = recorder.counter("stats:" + service + ":total", java.util.List.of(900L, 3600L));
        total.increment(5);
        assertTrue(recorder.flush());
        recorder.close();
        redis.sync().set("stats:" + service + ":self:host1:abcdef123456", "1700000000.5");
        Map<String, Long> values = reader.values("stats:" + service + ":*");
        assertEquals(Map.of("stats:" + service + ":total:900", 5L, "stats:" + service + ":total:3600", 5L,
                "stats:" + service + ":total:lifetime", 5L), values);
        assertEquals(OptionalLong.empty(), reader.value("stats:" + service + ":missing:lifetime"));
    }
}
