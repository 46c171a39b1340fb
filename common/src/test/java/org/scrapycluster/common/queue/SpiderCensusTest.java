package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.junit.ManualClock;

@ExtendWith(TestRedis.class)
class SpiderCensusTest {

    private final RedisConnection redis;
    private final String leasing = TestRedis.unique("censusa");
    private final String indexed = TestRedis.unique("censusb");
    private final ManualClock clock = new ManualClock();
    private final SpiderCensus census;

    SpiderCensusTest(RedisConnection redis) {
        this.redis = redis;
        this.census = new SpiderCensus(redis, Duration.ofSeconds(10), clock);
    }

    @AfterEach
    void deleteKeys() {
        for (String spider : List.of(leasing, indexed)) {
            List<String> keys = RedisKeys.scan(redis, spider + "*");
            if (!keys.isEmpty()) {
                redis.sync().del(keys.toArray(String[]::new));
            }
        }
    }

    @Test
    void oneQuietPassFindsTheSpidersWithLeasesAndThoseWithAnIndex() {
        redis.sync().zadd(Keyspace.leases(leasing), 1, "example.com|-100|n1");
        redis.sync().zadd(Keyspace.activeDomains(indexed), 1, "example.com");
        redis.sync().zadd(Keyspace.activeDomains(leasing), 1, "example.com");
        // keys that end the same way but name no spider
        redis.sync().mset(Map.of("info:" + indexed + ":leases", "u1", ":leases", "x"));

        long scansBefore = TestRedis.scanCalls(redis);
        assertTrue(census.withLeases().contains(leasing));
        assertFalse(census.withLeases().contains(indexed));
        long scansOfOnePass = TestRedis.scanCalls(redis) - scansBefore;
        assertTrue(census.withActiveDomains().containsAll(List.of(leasing, indexed)));

        assertEquals(scansOfOnePass, TestRedis.scanCalls(redis) - scansBefore, "the index came from the same pass");
        assertFalse(census.withLeases().stream().anyMatch(spider -> spider.isEmpty() || spider.contains(":")));
    }

    @Test
    void theSpidersOfCrawlerNodesAreThoseOfTheirHeartbeatsNotOfTheirStatusCounts() {
        String heartbeat = Keyspace.CRAWLER_HEARTBEAT.fill("host1", leasing, "0123456789ab");
        String counts = "stats:crawler:host1:" + indexed + ":200:3600";
        redis.sync().mset(Map.of(heartbeat, "1", counts, "5"));
        try {
            assertTrue(census.withCrawlers().contains(leasing));
            assertFalse(census.withCrawlers().contains(indexed), "a status count names no running node");
        } finally {
            redis.sync().del(heartbeat, counts);
        }
    }

    @Test
    void aSpiderThatComesLaterIsFoundByThePassAfterThePeriod() {
        assertFalse(census.withLeases().contains(leasing));
        redis.sync().zadd(Keyspace.leases(leasing), 1, "example.com|-100|n1");

        clock.advance(Duration.ofSeconds(9));
        assertFalse(census.withLeases().contains(leasing), "within the period: the last pass's answer");
        clock.advance(Duration.ofSeconds(2));
        assertTrue(census.withLeases().contains(leasing));
    }
}
