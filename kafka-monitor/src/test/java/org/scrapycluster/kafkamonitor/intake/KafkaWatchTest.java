package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.metrics.Health;

/** The Kafka check of the monitor, told by its consumer's open connections. */
class KafkaWatchTest {

    private final AtomicInteger open = new AtomicInteger(1);
    private final KafkaWatch watch = new KafkaWatch("kafka:9092", "consuming demo.incoming", Duration.ofSeconds(1));

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
