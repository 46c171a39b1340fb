package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import io.lettuce.core.RedisException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A Redis monitor on a private Redis that goes away and comes back: it starts while Redis is
 * down, rides out an outage in the middle, and answers jobs again once Redis is back. One stopped while Redis hangs
 * gives its last writes up together, within the stop's budget rather than the command timeout each.
 */
@ExtendWith(SharedStack.class)
class RedisOutageTest {

    @Test
    void startsWithoutRedisAndAnswersAgainAfterAnOutage(EmbeddedStack stack) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("outage-redis"));
             MonitorFixture fixture = MonitorFixture.on(redis.port(), stack.kafkaBootstrap(), stack.zookeeperConnect(),
                     "REDIS_SOCKET_TIMEOUT", "2");
             CapturedLog log = CapturedLog.start(RedisMonitor.class, Level.WARN)) {
            redis.stop();
            MonitorFixture.Running monitor = fixture.startMonitor();
            // its first connection failed: it retries
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> log.lines().stream().anyMatch(line -> line.contains("Cannot connect to Redis")));
            assertEquals(Health.Status.DOWN, monitor.health().check().checks().get("redis").status());
            redis.restart();
            answered(fixture, "before-the-outage");

            redis.stop();
            awaitRedisHealth(monitor, Health.Status.DOWN);
            MonitorFixture.sleep(Duration.ofSeconds(3));
            redis.restart();
            answered(fixture, "after-the-outage");
            awaitRedisHealth(monitor, Health.Status.UP);
        }
    }

    /**
     * With a command timeout longer than the test's limit, a stop that waited for each last write (the backlog lock's
     * release first) would not end in time; it gives them up after the budget's last writes' share and says so once.
     * The stop's budget is shorter than the service's (6 s, 3 s of it for the last writes, against 20 s and 10 s), as
     * the hung Redis makes the stop use all of it.
     */
    @Test
    @Timeout(value = 50, unit = TimeUnit.SECONDS)
    void aStopWhileRedisHangsGivesItsLastWritesUpTogetherAndSaysSoOnce(EmbeddedStack stack) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("hung-redis-stop"));
             MonitorFixture fixture = MonitorFixture.on(redis.port(), stack.kafkaBootstrap(), stack.zookeeperConnect(),
                     "REDIS_SOCKET_TIMEOUT", "120", "BACKLOG_METRICS_PERIOD", "0.2");
             CapturedLog log = CapturedLog.start(RunningMonitor.class, Level.WARN)) {
            NodeIdentity node = NodeIdentity.create();
            MonitorFixture.Running monitor = fixture.startMonitor(node, new RunningMonitor.StopTimes(Duration.ofSeconds(6), Duration.ofSeconds(3)));
            String heartbeat = Keyspace.HEARTBEAT.fill("redis-monitor", node.toString());
            String backlogLock = Keyspace.lock(Keyspace.BACKLOG_METERS_LOCK);
            fixture.awaitPresent(heartbeat);
            fixture.awaitPresent(backlogLock);

            redis.freeze();
            try {
                monitor.monitor().close();
            } finally {
                redis.thaw();
            }

            List<String> stop = log.lines().stream().filter(line -> line.contains("Not written at stop")).toList();
            assertEquals(1, stop.size(), log.lines().toString());
            assertTrue(stop.getFirst().contains("the release of the lock " + backlogLock), stop.getFirst());
            assertTrue(List.of(stop.getFirst().split("; ")).getFirst().contains(": Redis did not take it within "),
                    "the first write, sent to the hung Redis, is the one said not taken: " + stop.getFirst());
            assertTrue(stop.getFirst().contains("the removal of the heartbeat " + heartbeat), stop.getFirst());
            assertTrue(stop.getFirst().contains("the statistics counted since their last write, lost"), stop.getFirst());
        }
    }

    private static void answered(MonitorFixture fixture, String uuid) {
        String key = Keyspace.INFO_CRAWL.fill("spider", "app", uuid);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                fixture.post(key, uuid);
                break;
            } catch (RedisException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                MonitorFixture.sleep(Duration.ofMillis(200));
            }
        }
        fixture.answers().awaitUuid(uuid);
        fixture.awaitGone(key);
    }

    private static void awaitRedisHealth(MonitorFixture.Running monitor, Health.Status status) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (monitor.health().check().checks().get("redis").status() != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Redis health is not " + status + " after a minute");
            }
            MonitorFixture.sleep(Duration.ofMillis(100));
        }
    }
}
