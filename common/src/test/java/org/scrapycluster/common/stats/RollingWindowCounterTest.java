package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class RollingWindowCounterTest {

    private final RedisConnection redis;
    private final String key = "stats:" + TestRedis.unique("rw") + ":total:900";

    RollingWindowCounterTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void bucketsAreASixtiethOfTheWindow() {
        RollingWindowCounter counter = new RollingWindowCounter(key, 900);
        assertEquals(15, counter.bucketSeconds());
        assertEquals(1_000_005, counter.bucketStart(1_000_019));
        assertEquals(1, new RollingWindowCounter(key, 2).bucketSeconds());
        assertEquals(10_080, new RollingWindowCounter(key, 604_800).bucketSeconds());
    }

    @Test
    void countsByBucketSumsTheWindowAndDropsWhatLeftIt() {
        RollingWindowCounter counter = new RollingWindowCounter(key, 900);
        long now = Long.parseLong(redis.sync().time().get(0));
        Map<Long, Long> counts = new TreeMap<>();
        counts.put(counter.bucketStart(now), 3L);
        counts.put(counter.bucketStart(now - 300), 4L);
        counts.put(counter.bucketStart(now - 2_000), 100L);
        assertTrue(redis.await(counter.addAsync(redis, counts, now, "node1", 1)));
        assertEquals(7, inWindow(counter, now));
        String buckets = counter.bucketsKey();
        assertEquals(Keyspace.statsBuckets(key), buckets);
        assertEquals(Set.of(Long.toString(counter.bucketStart(now)), Long.toString(counter.bucketStart(now - 300)), "w:node1"),
                redis.sync().hkeys(buckets).stream().collect(Collectors.toSet()), "the bucket outside the window was not written");
        assertEquals(Long.toString(3), redis.sync().hget(buckets, Long.toString(counter.bucketStart(now))));
        Long ttl = redis.sync().ttl(buckets);
        assertTrue(ttl > 900 && ttl <= 915, "expires one bucket after the window: " + ttl);
        assertEquals(0, redis.sync().exists(key), "nothing at the original's name");

        assertTrue(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now + 700), 1L), now + 700, "node1", 2)));
        assertEquals(3, redis.sync().hlen(buckets));
        assertFalse(redis.sync().hexists(buckets, Long.toString(counter.bucketStart(now - 300))), "it left the window: trimmed");
        assertEquals(4, inWindow(counter, now + 700));
    }

    /** A write Redis answered too late is sent again as it was: the window takes it once, and later writes all the same. */
    @Test
    void takesAWriteOnceAndAWritersNumberLeavesWithItsBuckets() {
        RollingWindowCounter counter = new RollingWindowCounter(key, 900);
        long now = 1_700_000_000L;
        Map<Long, Long> first = Map.of(counter.bucketStart(now), 3L);
        assertTrue(redis.await(counter.addAsync(redis, first, now, "node1", 7)));
        assertTrue(redis.await(counter.addAsync(redis, first, now + 1, "node1", 7)));
        assertEquals(3, inWindow(counter, now + 1), "sent again: taken once");
        assertTrue(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now), 2L), now + 1, "node2", 7)));
        assertTrue(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now + 1), 4L), now + 1, "node1", 8)));
        assertEquals(9, inWindow(counter, now + 1), "another writer's numbers are its own");
        assertEquals("8 " + (now + 1), redis.sync().hget(counter.bucketsKey(), "w:node1"));

        assertTrue(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now + 2_000), 1L), now + 2_000, "node3", 1)));
        assertEquals(Set.of(Long.toString(counter.bucketStart(now + 2_000)), "w:node3"),
                redis.sync().hkeys(counter.bucketsKey()).stream().collect(Collectors.toSet()), "writers leave with their time's buckets");
    }

    @Test
    void leavesAPythonComponentsSortedSetAloneAndWritesBesideIt() {
        redis.sync().zadd(key, 1.0, "1.0");
        RollingWindowCounter counter = new RollingWindowCounter(key, 900);
        assertTrue(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(1000), 1L), 1000, "node1", 1)));
        assertEquals("zset", redis.sync().type(key));
        assertEquals(1, inWindow(counter, 1000));
    }

    @Test
    void refusesABucketsKeyOfAnotherType() {
        RollingWindowCounter counter = new RollingWindowCounter(key, 900);
        redis.sync().set(counter.bucketsKey(), "written by hand");
        assertFalse(redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(1000), 1L), 1000, "node1", 1)));
        assertEquals("written by hand", redis.sync().get(counter.bucketsKey()));
    }

    /** The events {@code counter}'s buckets hold in its window at {@code nowEpochSecond}. */
    private long inWindow(RollingWindowCounter counter, long nowEpochSecond) {
        return counter.sum(redis.sync().hgetall(counter.bucketsKey()), nowEpochSecond);
    }
}
