package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.crawler.robots.ServerErrorRows.Row;
import org.scrapycluster.crawler.robots.ServerErrorRows.Verdict;
import org.scrapycluster.crawler.scheduler.PrivateRedis;

/** The rows of server errors on a host's robots.txt as the crawler nodes count them together in Redis. */
class RedisServerErrorRowsTest {

    private static final Duration RETRY = Duration.ofMinutes(1);

    private final RedisConnection redis = PrivateRedis.connection();
    private final String origin = "http://" + UUID.randomUUID() + ".test";
    private final ServerErrorRows node1 = new RedisServerErrorRows(redis, RETRY);
    private final ServerErrorRows node2 = new RedisServerErrorRows(redis, RETRY);

    @Test
    void theThirdErrorOfTheRowGivesUpWhicheverNodeCountsIt() {
        assertEquals(new Row(1, Verdict.WAIT), node1.count(origin).join());
        assertEquals(new Row(2, Verdict.WAIT), node1.count(origin).join());
        assertEquals(new Row(3, Verdict.GIVE_UP), node2.count(origin).join());
        assertEquals(new Row(4, Verdict.GIVEN_UP), node1.count(origin).join(), "said once, by the node that gave up");
        long ttl = redis.sync().pttl(key());
        assertTrue(ttl > RETRY.multipliedBy(3).minusSeconds(5).toMillis() && ttl <= RETRY.multipliedBy(3).toMillis(),
                "a row ends three retry times after its last error: " + ttl);

        node2.end(origin);
        assertEquals(new Row(1, Verdict.WAIT), node1.count(origin).join(), "a file read ends the row");
    }

    @Test
    void anErrorTwoRetryTimesAfterTheFirstOfTheRowGivesUp() {
        assertEquals(new Row(1, Verdict.WAIT), node1.count(origin).join());
        long first = Long.parseLong(redis.sync().hget(key(), "first"));
        redis.sync().hset(key(), "first", Long.toString(first - RETRY.multipliedBy(2).toMillis()));
        assertEquals(new Row(2, Verdict.GIVE_UP), node2.count(origin).join());
    }

    private String key() {
        return Keyspace.ROBOTS_SERVER_ERRORS.fill(origin);
    }
}
