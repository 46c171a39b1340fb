package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

@ExtendWith(TestRedis.class)
class StatsRecorderTest {

    /** The recorders' clock, at a fixed second (1700000100), where the tests' counts land unless they move it. */
    private final SettableClock clock = new SettableClock(Instant.ofEpochSecond(1_700_000_100L));

    @Test
    void countsInMemoryAndWritesEveryWindowAndTheLifetime(RedisConnection redis) {
        String prefix = "stats:" + TestRedis.unique("km") + ":total";
        StatsRecorder recorder = recorder(redis);
        StatsCounter total = recorder.counter(prefix, List.of(60L, 900L));
        for (int i = 0; i < 20_000; i++) {
            total.increment();
        }
        assertEquals(0, redis.sync().exists(Keyspace.statsBuckets(prefix + ":60")), "nothing is written before a flush");
        clock.advance(Duration.ofSeconds(3));
        total.increment(2);
        assertTrue(recorder.flush());

        assertEquals(Map.of("1700000100", "20000", "1700000103", "2"), buckets(redis, Keyspace.statsBuckets(prefix + ":60")));
        assertEquals(Map.of("1700000100", "20002"), buckets(redis, Keyspace.statsBuckets(prefix + ":900")));
        long lifetime = redis.sync().pfcount(prefix + ":lifetime");
        assertTrue(Math.abs(lifetime - 20_002) < 400, "HyperLogLog within 2 %: " + lifetime);
        assertTrue(recorder.flush(), "an empty flush is fine");
        assertEquals("20000", redis.sync().hget(Keyspace.statsBuckets(prefix + ":60"), "1700000100"), "nothing written twice");
        recorder.close();
    }

    @Test
    void keepsCountingWhileRedisIsDownAndWritesLater() {
        String prefix = "stats:" + TestRedis.unique("km") + ":fail";
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("stats-outage"));
             RedisConnection redis = TestRedis.connect(server)) {
            StatsRecorder recorder = new StatsRecorder(redis, "node1", Clock.systemUTC(), Duration.ofMillis(100));
            StatsCounter fail = recorder.counter(prefix, List.of(900L));
            recorder.start();
            fail.increment(3);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> "3".equals(sum(redis, Keyspace.statsBuckets(prefix + ":900"))));

            server.stop();
            fail.increment(4);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !redis.isConnected());
            assertFalse(recorder.flush(), "Redis is down: the counts are kept");
            fail.increment(5);

            server.restart();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "9".equals(sum(redis, Keyspace.statsBuckets(prefix + ":900"))));
            // a flush writes the window, then the lifetime count, as two commands
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(9, redis.sync().pfcount(prefix + ":lifetime")));
            recorder.close();
            assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("stats-flush") && t.isAlive()),
                    "the flush thread stopped");
        }
    }

    /**
     * A Redis that stalls longer than the command timeout runs the writes it was sent once it is back: they are sent again
     * as they were, so that neither the lifetime events nor a window's counts are counted twice, in either form.
     */
    @ParameterizedTest(name = "original keys: {0}")
    @ValueSource(booleans = {false, true})
    void countsRedisAnsweredTooLateAreNotCountedTwice(boolean originalKeys) {
        String prefix = "stats:" + TestRedis.unique("km") + ":total";
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("stats-stall"));
             RedisConnection redis = TestRedis.connect(server)) {
            StatsRecorder recorder = new StatsRecorder(redis, "node1", clock, Duration.ofSeconds(1), originalKeys);
            StatsCounter total = recorder.counter(prefix, List.of(900L));
            total.increment();
            assertTrue(recorder.flush(), "Redis has the scripts: a write it answers late is run");
            total.increment(3);
            server.freeze();
            try {
                assertFalse(recorder.flush(), "no answer within the command timeout");
            } finally {
                server.thaw();
            }
            total.increment(2);

            assertTrue(recorder.flush(), "the write sent again, then the counts held back behind it");

            assertEquals(6, redis.sync().pfcount(prefix + ":lifetime"));
            assertEquals(6, originalKeys
                    ? redis.sync().zcard(prefix + ":900")
                    : buckets(redis, Keyspace.statsBuckets(prefix + ":900")).values().stream().mapToLong(Long::parseLong).sum());
            recorder.close();
        }
    }

    @Test
    void aKeyRedisRefusesIsSkippedAndItsCountsDroppedWhileTheOthersAreWritten(RedisConnection redis) {
        String prefix = "stats:" + TestRedis.unique("km") + ":refused";
        StatsRecorder recorder = recorder(redis);
        StatsCounter refused = recorder.counter(prefix, List.of(60L, 900L));
        redis.sync().set(prefix + ":lifetime", "not a HyperLogLog");
        redis.sync().hset(Keyspace.statsBuckets(prefix + ":60"), "1700000100", "not a number");
        refused.increment(5);

        assertTrue(recorder.flush(), "a refused key is no outage");
        assertEquals(Map.of("1700000100", "5"), buckets(redis, Keyspace.statsBuckets(prefix + ":900")), "the other window is written");

        redis.sync().del(prefix + ":lifetime", Keyspace.statsBuckets(prefix + ":60"));
        refused.increment(2);
        assertTrue(recorder.flush());
        assertEquals(2, redis.sync().pfcount(prefix + ":lifetime"), "the counts Redis refused are dropped, not kept");
        assertEquals(Map.of("1700000100", "2"), buckets(redis, Keyspace.statsBuckets(prefix + ":60")));
        recorder.close();
    }

    @Test
    void aBucketsKeyOfAnotherTypeIsWrittenAgainOnceItIsGone(RedisConnection redis) {
        String prefix = "stats:" + TestRedis.unique("km") + ":foreign";
        String buckets = Keyspace.statsBuckets(prefix + ":60");
        StatsRecorder recorder = recorder(redis);
        StatsCounter counter = recorder.counter(prefix, List.of(60L));
        redis.sync().set(buckets, "written by hand");
        counter.increment(3);
        assertTrue(recorder.flush(), "a key of another type is no outage");
        assertEquals("written by hand", redis.sync().get(buckets), "the other type is left alone");

        redis.sync().del(buckets);
        counter.increment(2);
        assertTrue(recorder.flush());
        assertEquals(Map.of("1700000100", "2"), buckets(redis, buckets),
                "written again once the key is gone; what was counted while it held another type is dropped");
        recorder.close();
    }

    @Test
    void writesBesideThePythonSortedSetAndFoldsInTheHashAnEarlierBuildLeftAtTheOriginalsName(RedisConnection redis) {
        String prefix = "stats:" + TestRedis.unique("km") + ":total";
        StatsRecorder recorder = recorder(redis);
        StatsCounter counter = recorder.counter(prefix, List.of(60L, 900L));
        redis.sync().zadd(prefix + ":60", 1_700_000_099, "1700000099.5");
        redis.sync().hset(prefix + ":900", Map.of("1700000085", "4", "1700000100", "1"));

        assertTrue(recorder.flush(), "the first flush writes every window, events or not");
        assertEquals(0, redis.sync().exists(prefix + ":900"), "the earlier build's HASH is gone from the original's name");
        assertEquals(Map.of("1700000085", "4", "1700000100", "1"), buckets(redis, Keyspace.statsBuckets(prefix + ":900")));

        counter.increment(3);
        assertTrue(recorder.flush());
        assertEquals(1, redis.sync().zcard(prefix + ":60"), "the sorted set is left to its writer");
        assertEquals(Map.of("1700000100", "3"), buckets(redis, Keyspace.statsBuckets(prefix + ":60")));
        assertEquals(Map.of("1700000085", "4", "1700000100", "4"), buckets(redis, Keyspace.statsBuckets(prefix + ":900")));
        recorder.close();
    }

    /** A recorder on {@link #clock}, flushed by the test. */
    private StatsRecorder recorder(RedisConnection redis) {
        return new StatsRecorder(redis, "node1", clock, Duration.ofSeconds(1));
    }

    private static String sum(RedisConnection redis, String key) {
        try {
            return Long.toString(buckets(redis, key).values().stream().mapToLong(Long::parseLong).sum());
        } catch (RuntimeException redisAway) {
            return "unreachable";
        }
    }

    /** The time buckets of a window's HASH, without its writers' numbers ({@code w:<node id>}). */
    private static Map<String, String> buckets(RedisConnection redis, String key) {
        Map<String, String> buckets = new HashMap<>(redis.sync().hgetall(key));
        buckets.keySet().removeIf(field -> field.startsWith("w:"));
        return buckets;
    }
}
