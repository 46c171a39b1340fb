package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
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
    void sumsEveryFormOfAWindowAndNamesItByTheOriginalsName() {
        String window = "stats:" + service + ":total:900";
        long now = System.currentTimeMillis() / 1000;
        redis.sync().zadd(window, now - 5, "python event");
        redis.sync().hset(Keyspace.statsBuckets(window), Long.toString(now / 15 * 15), "3");
        String earlier = "stats:" + service + ":fail:900";
        redis.sync().hset(earlier, Long.toString(now / 15 * 15), "2");
        redis.sync().hset(Keyspace.statsBuckets(earlier), Long.toString(now / 15 * 15 - 15), "1");
        redis.sync().hset(Keyspace.statsBuckets("stats:" + service + ":ScraperHandler:900"), Long.toString(now / 15 * 15), "6");

        assertEquals(Map.of(window, 4L, earlier, 3L, "stats:" + service + ":ScraperHandler:900", 6L),
                values("stats:" + service + ":*"), "a Python sorted set, an earlier build's HASH and our buckets, by the original's names");
    }

    @Test
    void readsOurBucketsLifetimesAndSkipsHeartbeats() {
        StatsRecorder recorder = new StatsRecorder(redis, "node1", Clock.systemUTC(), Duration.ofSeconds(1));
        StatsCounter total = recorder.counter("stats:" + service + ":total", java.util.List.of(900L, 3600L));
        total.increment(5);
        assertTrue(recorder.flush());
        recorder.close();
        redis.sync().set("stats:" + service + ":self:host1:abcdef123456", "1700000000.5");
        Map<String, Long> values = values("stats:" + service + ":*");
        assertEquals(Map.of("stats:" + service + ":total:900", 5L, "stats:" + service + ":total:3600", 5L,
                "stats:" + service + ":total:lifetime", 5L), values);
        assertEquals(OptionalLong.empty(), reader.value("stats:" + service + ":missing:lifetime"));
    }

    /**
     * The value of every counter whose original name matches the glob {@code pattern}, by that name, as a Redis monitor
     * finds them: the names of both forms ({@link StatsReader#patterns}, {@link StatsReader#names}) in one pass.
     */
    private Map<String, Long> values(String pattern) {
        List<List<String>> found = RedisKeys.scanEach(redis, StatsReader.patterns(pattern));
        Map<String, Long> values = new TreeMap<>();
        for (String key : StatsReader.names(found.get(0), found.get(1))) {
            reader.value(key).ifPresent(value -> values.put(key, value));
        }
        return values;
    }
}
