package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

/** The monitor starts while Kafka is not there, waits for it without crashing or spinning, and works once it comes. */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    private final EmbeddedStack stack;

    KafkaOutageTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aMonitorStartedBeforeKafkaWaitsForItAndThenWorks() {
        int port = FreePorts.pick();
        MonitorSettings settings = MonitorSettings.forStack(stack).set("KAFKA_HOSTS", "127.0.0.1:" + port);
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> monitor.health().checks().get("kafka-monitor.kafka").status() == Health.Status.DOWN
                            && monitor.health().checks().get("kafka-monitor.redis").status() == Health.Status.UP);
            long cpuBefore = cpuNanos();
            sleep(Duration.ofSeconds(3));
            assertTrue(cpuNanos() - cpuBefore < Duration.ofSeconds(2).toNanos(), "waiting for Kafka does not spin");

            try (EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.temporary("late-kafka"));
                 KafkaTopics topics = new KafkaTopics(kafka.bootstrapServers());
                 RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
                String spider = MonitorSettings.unique("sp");
                topics.sendText(settings.incomingTopic(), "{\"url\":\"http://www.late-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}");

                Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> redis.sync().zcard(spider + ":late-example.com:queue") == 1);
                monitor.awaitHealthy();
                assertEquals(1, monitor.counter("kafka.monitor.records.consumed"));
            }
        }
    }

    private static long cpuNanos() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("kafka-monitor")) {
                total += Math.max(0, threads.getThreadCpuTime(thread.threadId()));
            }
        }
        return total;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
