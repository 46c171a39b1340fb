package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Redis goes away while the monitor runs, and comes back: the monitor keeps its batch, says so
 * once, commits nothing meanwhile, and writes every request once Redis is back. Meanwhile its
 * {@code /health/live} stays 200 and {@code /health/ready} answers 503 until Redis is back.
 */
@ExtendWith(SharedStack.class)
class RedisOutageTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    private final EmbeddedStack stack;
    private CapturedLog logged;

    RedisOutageTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void captureTheLog() {
        logged = CapturedLog.start(KafkaMonitor.class, Level.INFO);
    }

    @AfterEach
    void releaseTheLog() {
        logged.close();
    }

    @Test
    void nothingIsLostAndNothingCrashesWhileRedisIsAway() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("outage-redis"));
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            MonitorSettings settings = MonitorSettings.forStack(stack, server.port())
                    .set("METRICS_HOST", "127.0.0.1").set("METRICS_PORT", "0");
            String group = settings.prefix() + "-group";
            try (RunningMonitor monitor = RunningMonitor.start(settings.build()).awaitHealthy();
                 RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
                kafka.sendText(settings.incomingTopic(), crawls("before", 20));
                Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 20);
                assertEquals(200, monitor.httpStatus("/health/ready"));
                assertEquals(200, monitor.httpStatus("/health/live"));

                server.stop();
                kafka.sendText(settings.incomingTopic(), crawls("during", 30));
                Awaitility.await().atMost(WAIT).until(() -> monitor.counter("kafka.monitor.redis.retries") >= 3);
                assertEquals(Health.Status.DOWN, monitor.health().checks().get("kafka-monitor.redis").status());
                assertEquals(20, kafka.committed(group, settings.incomingTopic()), "nothing is committed while Redis is away");
                Awaitility.await().atMost(WAIT).until(() -> monitor.httpStatus("/health/ready") == 503);
                assertEquals(200, monitor.httpStatus("/health/live"), "a dependency away never fails liveness");
                assertEquals(503, monitor.httpStatus("/health"));

                server.restart();
                Awaitility.await().atMost(WAIT).ignoreExceptions()
                        .until(() -> redis.sync().zcard("link:during-example.com:queue") == 30);
                Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 50);
                kafka.sendText(settings.incomingTopic(), crawls("after", 10));
                Awaitility.await().atMost(WAIT).ignoreExceptions().until(() -> redis.sync().zcard("link:after-example.com:queue") == 10);
                Awaitility.await().atMost(WAIT).until(() -> monitor.httpStatus("/health/ready") == 200);
                assertEquals(200, monitor.httpStatus("/health/live"));
            }
        }
        List<String> warnings = logged.events().stream().map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.startsWith("Writing requests to Redis failed")).toList();
        assertEquals(1, warnings.size(), "the outage is logged once: " + warnings);
        assertTrue(logged.events().stream().anyMatch(event -> event.getFormattedMessage().equals("Writing requests to Redis works again, Redis is back")));
    }

    @Test
    void aMonitorStartedBeforeRedisWaitsForIt() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("late-redis"));
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            server.stop();
            MonitorSettings settings = MonitorSettings.forStack(stack, server.port());
            try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
                kafka.sendText(settings.incomingTopic(), crawls("early", 5));
                Awaitility.await().atMost(WAIT).until(() -> logged.events().stream()
                        .anyMatch(event -> event.getFormattedMessage().startsWith("Cannot connect to Redis at ")));
                assertEquals(Health.Status.DOWN, monitor.health().checks().get("kafka-monitor.redis").status());

                server.restart();
                try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
                    Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard("link:early-example.com:queue") == 5);
                }
                monitor.awaitHealthy();
            }
        }
    }

    private static String[] crawls(String site, int count) {
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add("{\"url\":\"http://www." + site + "-example.com/" + i + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\"}");
        }
        return requests.toArray(String[]::new);
    }
}
