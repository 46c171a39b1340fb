package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.HeapExhaustingHandler;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorProcess;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

/**
 * A monitor that dies after it consumed a batch and before it committed it loses nothing: the
 * monitor runs in a JVM of its own that is killed, and another one, started afterwards in the same
 * consumer group, takes the batch again.
 */
@ExtendWith(SharedStack.class)
class CrashBeforeCommitTest {

    private static final Duration WAIT = Duration.ofMinutes(2);

    private final EmbeddedStack stack;

    CrashBeforeCommitTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    /** Settings whose consumer the group gives up on within seconds of its death, rather than 45 s. */
    private static MonitorSettings quickToNoticeDeath(MonitorSettings settings) {
        return settings.set("KAFKA_CLIENT_PROPERTIES", "{session.timeout.ms: 6000, heartbeat.interval.ms: 1000}");
    }

    @Test
    void aBatchWrittenButNotCommittedIsTakenAgainAfterARestartAndNotQueuedTwice() throws Exception {
        MonitorSettings settings = quickToNoticeDeath(MonitorSettings.forStack(stack));
        String spider = MonitorSettings.unique("sp");
        String app = MonitorSettings.unique("app");
        String group = settings.prefix() + "-group";
        Path log = Files.createTempFile("monitor-process", ".log");
        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap());
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            kafka.sendText(settings.incomingTopic(),
                    "{\"url\":\"http://www.crash-example.com/\",\"appid\":\"" + app + "\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}",
                    "{\"uuid\":\"u-1\",\"appid\":\"" + app + "\",\"action\":\"info\",\"spiderid\":\"" + spider + "\"}");

            Process child = MonitorProcess.start("halt-after-write", settings.values(), log);
            assertTrue(child.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the monitor process died");
            String output = Files.readString(log);
            assertEquals(137, child.exitValue(), output);
            assertTrue(output.contains("WRITTEN 2"), output);
            assertEquals(1, redis.sync().zcard(spider + ":crash-example.com:queue"), "the batch was written to Redis");
            assertEquals(0, kafka.committed(group, settings.incomingTopic()), "but its offsets were not committed");
            redis.sync().del("info:" + spider + ":" + app);

            try (RunningMonitor restarted = RunningMonitor.start(settings.build())) {
                Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 2);
                assertEquals(2, restarted.counter("kafka.monitor.records.consumed"), "the batch was taken again");
                assertEquals("u-1", redis.sync().get("info:" + spider + ":" + app), "and its writes made again");
                assertEquals(1, redis.sync().zcard(spider + ":crash-example.com:queue"), "the seed is not queued twice");
                assertEquals("1", redis.sync().hget("crawl:" + spider + ":" + app + ":c1", "pending"));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void aMonitorWhoseHeapRunsOutExitsSayingSoAndLeavesItsBatchToTheNextMonitor() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack)
                .set("PLUGINS", "{" + HeapExhaustingHandler.class.getName() + ": 500}");
        String group = settings.prefix() + "-group";
        Path log = Files.createTempFile("monitor-process", ".log");
        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            kafka.sendText(settings.incomingTopic(), "{\"uuid\":\"u1\",\"test\":\"cluster\"}");

            Process child = MonitorProcess.start("run", settings.values(), log);
            try {
                assertTrue(child.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the monitor process did not exit");
                String output = Files.readString(log);
                assertEquals(70, child.exitValue(), output);
                assertTrue(output.contains("The Kafka monitor failed with java.lang.OutOfMemoryError: Java heap space (thrown by a test plugin),"
                        + " which it cannot go on from; the process exits with status 70"), output);
                assertEquals(0, kafka.committed(group, settings.incomingTopic()), "the batch is left to the next monitor");
            } finally {
                child.destroyForcibly();
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void aBatchThatRedisRefusedIsTakenAgainByTheNextMonitorAfterAKill() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crash-redis"));
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            MonitorSettings settings = quickToNoticeDeath(MonitorSettings.forStack(stack, server.port()));
            String group = settings.prefix() + "-group";
            Path log = Files.createTempFile("monitor-process", ".log");
            Map<String, String> values = new LinkedHashMap<>(settings.values());
            Process child = MonitorProcess.start("run", values, log);
            try {
                Awaitility.await().atMost(WAIT).until(() -> Files.readString(log).contains("STARTED"));
                Awaitility.await().atMost(WAIT).until(() -> {
                    try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
                        return !redis.sync().keys("stats:kafka-monitor:self:*").isEmpty();
                    }
                });
                server.stop();
                kafka.sendText(settings.incomingTopic(), "{\"url\":\"http://www.refused-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\"}");
                Awaitility.await().atMost(WAIT).until(() -> Files.readString(log).contains("Writing requests to Redis failed"));
                child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                assertEquals(0, kafka.committed(group, settings.incomingTopic()), Files.readString(log));
            } finally {
                child.destroyForcibly();
                Files.deleteIfExists(log);
            }

            server.restart();
            try (RunningMonitor restarted = RunningMonitor.start(settings.build());
                 RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
                Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard("link:refused-example.com:queue") == 1);
                Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 1);
                assertEquals(1, restarted.counter("kafka.monitor.records.consumed"));
            }
        }
    }
}
