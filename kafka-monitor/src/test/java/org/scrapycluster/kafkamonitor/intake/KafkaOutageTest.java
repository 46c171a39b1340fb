package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
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

/**
 * The monitor starts while Kafka is not there and waits for it without crashing or spinning; it
 * works once Kafka comes, waits again while Kafka is away, and goes on where it stopped.
 */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    private final EmbeddedStack stack;

    KafkaOutageTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aMonitorWaitsForKafkaAtStartAndThroughAnOutageWithoutSpinning(@TempDir Path kafkaData) {
        int port = FreePorts.pick();
        // reported unavailable after 1 s without a connection (the least it takes) rather than 10 s, so that each wait below is short
        MonitorSettings settings = MonitorSettings.forStack(stack).set("KAFKA_HOSTS", "127.0.0.1:" + port)
                .set("KAFKA_UNAVAILABLE_AFTER", "1");
        String spider = MonitorSettings.unique("sp");
        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            awaitKafkaDown(monitor);

            try (EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
                 KafkaTopics topics = new KafkaTopics(kafka.bootstrapServers())) {
                topics.sendText(settings.incomingTopic(), crawl(spider, "early"));
                Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> redis.sync().zcard(spider + ":early-example.com:queue") == 1);
                monitor.awaitHealthy();
            }
            awaitKafkaDown(monitor);

            try (EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
                 KafkaTopics topics = new KafkaTopics(kafka.bootstrapServers())) {
                topics.sendText(settings.incomingTopic(), crawl(spider, "late"));
                Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> redis.sync().zcard(spider + ":late-example.com:queue") == 1);
                monitor.awaitHealthy();
                assertEquals(1, redis.sync().zcard(spider + ":early-example.com:queue"), "nothing was taken twice");
                assertEquals(2, monitor.counter("kafka.monitor.records.consumed"));
            }
        }
    }

    /**
     * Waits until the monitor reports Kafka unavailable after the test's {@code KAFKA_UNAVAILABLE_AFTER} (Redis still up),
     * then checks that it does not spin meanwhile.
     */
    private static void awaitKafkaDown(RunningMonitor monitor) {
        Awaitility.await().atMost(Duration.ofMinutes(1))
                .until(() -> {
                    Health kafka = monitor.health().checks().get("kafka-monitor.kafka");
                    return kafka.status() == Health.Status.DOWN && kafka.detail().endsWith(" for more than 1 s")
                            && monitor.health().checks().get("kafka-monitor.redis").status() == Health.Status.UP;
                });
        List<Thread> loops = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("kafka-monitor")).toList();
        assertEquals(1, loops.size(), "the monitor's loop, and no other left by an earlier test: " + loops);
        Thread loop = loops.getFirst();
        long cpuBefore = cpuNanos(loop);
        sleep(Duration.ofSeconds(3));
        // a waiting loop takes a few milliseconds of the 3 s; a spinning one, even on a busy machine, far more
        assertTrue(cpuNanos(loop) - cpuBefore < Duration.ofMillis(500).toNanos(), "waiting for Kafka does not spin");
    }

    private static String crawl(String spider, String site) {
        return "{\"url\":\"http://www." + site + "-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}";
    }

    private static long cpuNanos(Thread thread) {
        long nanos = ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.threadId());
        assertTrue(nanos >= 0, "the thread " + thread.getName() + " is alive and its CPU time measured");
        return nanos;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
