package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/** The Kafka check of the monitor, told by its consumer's open connections and the questions Kafka answers. */
class KafkaWatchTest {

    private final AtomicInteger open = new AtomicInteger(1);
    private final AtomicBoolean kafkaAnswers = new AtomicBoolean(true);
    /** Kafka asked every 10 ms, out of reach once 30 ms of questions went unanswered. */
    private final TopicReach reach = new TopicReach("demo.incoming", (topic, wait) -> kafkaAnswers.get()
            ? CompletableFuture.completedFuture(true)
            : CompletableFuture.failedFuture(new TimeoutException("Timed out waiting for a node assignment")),
            () -> { }, Clock.systemUTC(), Duration.ofMillis(30));
    private final KafkaWatch watch = new KafkaWatch("kafka:9092", "consuming demo.incoming", Duration.ofSeconds(1), reach,
            Clock.systemUTC());

    /**
     * The consumer's thread looks at the connections between batches; one held up past the grace (Redis calls waiting
     * out their timeout) left the check down for a Kafka that was there all along, and it flapped while Redis hung.
     */
    @Test
    void aConsumerHeldUpElsewhereWithItsConnectionsOpenIsUp() throws InterruptedException {
        watch.watch(connectionCount());
        Thread.sleep(1_200); // past the grace, without a look from the consumer's thread

        assertEquals(Health.Status.UP, watch.health().status());
    }

    @Test
    void noConnectionForLongerThanTheGraceIsDown() throws InterruptedException {
        watch.watch(connectionCount());
        open.set(0);
        assertEquals(Health.Status.UP, watch.health().status(), "within the grace");
        Thread.sleep(1_200);
        watch.observe();

        Health health = watch.health();
        assertEquals(Health.Status.DOWN, health.status());
        assertEquals("no connection to Kafka at kafka:9092 for more than 1 s", health.detail());
    }

    /** A broker that hangs (a frozen process) keeps its connections open and answers nothing: the check saw it up. */
    @Test
    void aBrokerThatKeepsItsConnectionsButAnswersNothingIsDownAndItsEndSaidOnce() throws InterruptedException {
        watch.watch(connectionCount());
        try (CapturedLog logged = CapturedLog.start(KafkaWatch.class, Level.INFO)) {
            kafkaAnswers.set(false);
            observeFor(Duration.ofMillis(200));
            Health health = watch.health();
            assertEquals(Health.Status.DOWN, health.status());
            assertTrue(health.detail().startsWith("Kafka has left every question since "), health.detail());
            assertFalse(watch.answers());

            kafkaAnswers.set(true);
            observeFor(Duration.ofMillis(50));
            assertEquals(Health.Status.UP, watch.health().status());
            assertEquals(2, logged.lines().size(), logged.lines().toString());
            assertTrue(logged.lines().get(0).startsWith("WARN Kafka unavailable at kafka:9092: Kafka has left every question since"),
                    logged.lines().get(0));
            assertEquals("INFO Kafka is back at kafka:9092", logged.lines().get(1));
        }
    }

    /** A connection being made to a broker that is still away was taken for its return, and the outage said twice. */
    @Test
    void aConnectionWithoutAnAnswerIsNoReturn() throws InterruptedException {
        watch.watch(connectionCount());
        open.set(0);
        kafkaAnswers.set(false);
        Thread.sleep(1_100);
        watch.observe();
        assertFalse(watch.answers());

        open.set(1);
        watch.observe();
        assertFalse(watch.answers(), "no question answered since the outage began");
        assertEquals(Health.Status.DOWN, watch.health().status());

        kafkaAnswers.set(true);
        observeFor(Duration.ofMillis(30));
        assertTrue(watch.answers());
        assertEquals(Health.Status.UP, watch.health().status());
    }

    private void observeFor(Duration time) throws InterruptedException {
        long end = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < end) {
            watch.observe();
            Thread.sleep(5);
        }
    }

    private Metric connectionCount() {
        MetricName name = new MetricName("connection-count", "consumer-metrics", "", Map.of());
        return new Metric() {
            @Override
            public MetricName metricName() {
                return name;
            }

            @Override
            public Object metricValue() {
                return (double) open.get();
            }
        };
    }
}
