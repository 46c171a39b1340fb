package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * {@code STATS_ORIGINAL_KEYS}: rolling windows written as the original's sorted sets, which a
 * Python Redis monitor ({@link PythonRedisMonitor}) answers stats requests from, and which our own
 * reader still reads; without it, our time-bucket HASHes are under names the Python monitor does not read.
 */
@ExtendWith(TestRedis.class)
class OriginalStatsKeysTest {

    private static final Instant START = Instant.ofEpochSecond(1_700_000_100L);

    @Test
    void aPythonRedisMonitorAnswersFromTheOriginalKeys(RedisConnection ours, RedisConnection theirs) {
        String service = TestRedis.unique("km");
        SettableClock clock = new SettableClock(START);
        StatsRecorder recorder = new StatsRecorder(ours, "node1", clock, Duration.ofSeconds(1), true);
        StatsCounter total = recorder.counter("stats:" + service + ":total", List.of(900L, 3600L));
        StatsCounter handler = recorder.counter("stats:" + service + ":ScraperHandler", List.of(900L));
        total.increment(3);
        clock.advance(Duration.ofSeconds(2));
        total.increment(2);
        handler.increment();
        assertTrue(recorder.flush());
        ours.sync().set("stats:" + service + ":self:host1:abcdef123456", "1");

        PythonRedisMonitor python = new PythonRedisMonitor(theirs);
        assertEquals(Map.of("total", Map.of("900", 5L, "3600", 5L, "lifetime", 5L),
                "plugins", Map.of("ScraperHandler", Map.of("900", 1L, "lifetime", 1L)),
                "nodes", Map.of("host1", List.of("abcdef123456"))), python.pluginStats(service));
        assertEquals(OptionalLong.of(5), new StatsReader(ours, clock).value("stats:" + service + ":total:900"), "our reader reads them too");

        clock.advance(Duration.ofSeconds(900));
        total.increment();
        assertTrue(recorder.flush());
        assertEquals(Map.of("900", 3L, "3600", 6L, "lifetime", 6L), python.pluginStats(service).get("total"),
                "the three events of the first second left the 900 s window");
        recorder.close();
    }

    @Test
    void withoutTheSettingAPythonRedisMonitorMeetsNoHashAndCountsItsOwnEvents(RedisConnection ours, RedisConnection theirs) {
        String service = TestRedis.unique("km");
        SettableClock clock = new SettableClock(START);
        StatsRecorder recorder = new StatsRecorder(ours, "node1", clock, Duration.ofSeconds(1));
        recorder.counter("stats:" + service + ":total", List.of(900L)).increment(4);
        assertTrue(recorder.flush());
        theirs.sync().zadd("stats:" + service + ":total:900", START.getEpochSecond(), Double.toString(START.getEpochSecond() + 0.5));

        assertEquals(Map.of("total", Map.of("900", 1L, "lifetime", 4L)), new PythonRedisMonitor(theirs).pluginStats(service),
                "the Python monitor reads its own sorted set and the shared lifetime; our buckets are under a name it does not read");
        assertEquals(OptionalLong.of(5), new StatsReader(ours, clock).value("stats:" + service + ":total:900"), "ours counts both");
        recorder.close();
    }
}
