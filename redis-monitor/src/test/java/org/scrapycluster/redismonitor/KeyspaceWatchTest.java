package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/** A Redis that came back without the cluster's keys is said to have lost them; one that kept them is not. */
class KeyspaceWatchTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void aRedisRestartedWithoutItsDataIsSaidToHaveLostTheClustersKeys() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("keyspace-lost"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
             CapturedLog log = CapturedLog.start(KeyspaceWatch.class, Level.ERROR)) {
            KeyspaceWatch watch = new KeyspaceWatch(redis, Clock.systemUTC(), meters);
            watch.look();
            watch.look();
            assertEquals(List.of(), log.lines(), "a new cluster's mark written, then found");

            server.stop();
            server.restart();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                watch.look();
                return lost() == 1;
            });
            assertTrue(log.lines().getFirst().contains("Redis no longer holds the cluster's keys"), log.lines().toString());
            assertEquals(1, redis.sync().exists(Keyspace.KEYSPACE_MARK), "marked again");
        }
    }

    @Test
    void aRedisThatKeptItsDataIsNot(@TempDir Path data) {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.kept(data));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            KeyspaceWatch watch = new KeyspaceWatch(redis, Clock.systemUTC(), meters);
            watch.look();

            server.stop();
            server.restart();
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> redis.sync().exists(Keyspace.KEYSPACE_MARK) == 1);
            watch.look();
            assertEquals(0, lost());
        }
    }

    private double lost() {
        return meters.get("redis.monitor.keyspace.lost").counter().count();
    }
}
