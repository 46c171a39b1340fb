package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestRedis.class)
class RedisKeysTest {

    private final RedisConnection redis;
    private final String prefix = TestRedis.unique("keys");

    RedisKeysTest(RedisConnection redis) {
        this.redis = redis;
    }

    @AfterEach
    void deleteKeys() {
        List<String> keys = RedisKeys.scan(redis, prefix + ":*");
        if (!keys.isEmpty()) {
            redis.sync().del(keys.toArray(String[]::new));
        }
    }

    @Test
    void eachPatternGetsItsOwnKeysInTheOrderAsked() {
        redis.sync().mset(Map.of(prefix + ":info:a", "1", prefix + ":info:b", "2", prefix + ":stop:a", "3"));

        List<List<String>> found = RedisKeys.scanEach(redis,
                List.of(prefix + ":stop:*", prefix + ":none:*", prefix + ":info:*", prefix + ":*:a"));

        assertEquals(4, found.size());
        assertEquals(List.of(prefix + ":stop:a"), found.get(0));
        assertEquals(List.of(), found.get(1));
        assertEquals(Set.of(prefix + ":info:a", prefix + ":info:b"), Set.copyOf(found.get(2)));
        assertEquals(Set.of(prefix + ":info:a", prefix + ":stop:a"), Set.copyOf(found.get(3)));
    }

    @Test
    void aPassThatNeedsSeveralPagesIsFollowedToTheEndForEveryPattern() {
        // more keys than one page of SCAN COUNT holds, for two patterns of different sizes
        redis.sync().mset(keys("many", 2_500));
        redis.sync().mset(keys("some", 1_200));

        List<List<String>> found = RedisKeys.scanEach(redis, List.of(prefix + ":many:*", prefix + ":some:*"));

        assertEquals(keys("many", 2_500).keySet(), new HashSet<>(found.get(0)));
        assertEquals(2_500, found.get(0).size(), "each key once");
        assertEquals(keys("some", 1_200).keySet(), new HashSet<>(found.get(1)));
        assertEquals(1_200, found.get(1).size(), "each key once");
    }

    @Test
    void severalPatternsCostRedisOnePassOverTheKeyspace() {
        redis.sync().mset(keys("many", 2_500));

        long onePattern = scanCalls(() -> RedisKeys.scan(redis, prefix + ":many:*"));
        long threePatterns = scanCalls(() -> RedisKeys.scanEach(redis, List.of(prefix + ":many:*", prefix + ":none:*", "*")));

        assertTrue(onePattern >= 3, "a pass of several pages: " + onePattern);
        assertTrue(threePatterns < 2 * onePattern, "one pass, not three: " + threePatterns + " calls against " + onePattern);
    }

    /** The {@code SCAN} calls Redis served while {@code scans} ran. */
    private long scanCalls(Runnable scans) {
        long before = TestRedis.scanCalls(redis);
        scans.run();
        return TestRedis.scanCalls(redis) - before;
    }

    @Test
    void aScanByTypeFindsEveryKeyOfThatTypeAndNoOther() {
        redis.sync().mset(keys("text", 1_200));
        redis.sync().zadd(prefix + ":queue", 1, "member");
        redis.sync().sadd(prefix + ":set", "member");
        List<Glob> ours = List.of(Glob.compile(prefix + ":*"));

        Set<String> found = Set.copyOf(RedisKeys.matchEachOfType(redis, "string", ours).getFirst());

        assertEquals(keys("text", 1_200).keySet(), found);
        assertEquals(List.of(prefix + ":queue"), RedisKeys.matchEachOfType(redis, "zset", ours).getFirst());
    }

    private Map<String, String> keys(String kind, int count) {
        return IntStream.range(0, count).boxed().collect(Collectors.toMap(i -> prefix + ":" + kind + ":" + i, i -> "v"));
    }
}
