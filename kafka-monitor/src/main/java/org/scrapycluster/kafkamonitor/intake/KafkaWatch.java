package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.scrapycluster.common.metrics.Health;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the monitor's consumer reaches Kafka, told by its open connections: a consumer in a group
 * always holds one to the group coordinator. After {@code KAFKA_UNAVAILABLE_AFTER} (10 s) without any, Kafka is
 * reported unavailable, once, and its return once. Observed on the consumer's thread; the health
 * check may be read from any thread, and looks at the connections itself.
 */
final class KafkaWatch {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaWatch.class);
    private final String hosts;
    private final String consuming;
    private final Duration grace;
    private volatile Metric connections;
    private volatile long seenNanos = System.nanoTime();
    private boolean reportedDown;

    /**
     * @param hosts     the bootstrap servers, for the log
     * @param consuming what the consumer does when it works, for the health check
     * @param grace     how long the consumer may be without a connection before Kafka is reported unavailable, whole seconds
     */
    KafkaWatch(String hosts, String consuming, Duration grace) {
        this.hosts = hosts;
        this.consuming = consuming;
        this.grace = grace;
    }

    /** Watches {@code consumer}'s connections from now on. */
    void watch(Consumer<?, ?> consumer) {
        watch(consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("connection-count") && e.getKey().group().equals("consumer-metrics"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null));
    }

    /** Watches the consumer's {@code connection-count} metric from now on. */
    void watch(Metric connectionCount) {
        connections = connectionCount;
        seenNanos = System.nanoTime();
    }

    /** Looks at the connections now, and says so when Kafka went away or came back. */
    void observe() {
        long now = System.nanoTime();
        if (connectedNow()) {
            seenNanos = now;
            if (reportedDown) {
                reportedDown = false;
                LOG.info("Kafka is back at {}", hosts);
            }
        } else if (!reportedDown && now - seenNanos > grace.toNanos()) {
            reportedDown = true;
            LOG.warn("Kafka unavailable at {}: no connection for {} s; retrying", hosts, grace.toSeconds());
        }
    }

    /** Whether Kafka answers the consumer: it holds a connection now, or did within the grace period. */
    boolean answers() {
        observe();
        return connectedWithinGrace();
    }

    /**
     * Up while the consumer holds a connection, looked at now (the consumer's thread may be held up for a while, as by
     * Redis calls that wait out their timeout, and look at them only later) or within the grace period.
     */
    Health health() {
        if (connections == null) {
            return Health.down("starting");
        }
        if (connectedNow()) {
            seenNanos = System.nanoTime();
            return Health.up(consuming);
        }
        return connectedWithinGrace()
                ? Health.up(consuming)
                : Health.down("no connection to Kafka at " + hosts + " for more than " + grace.toSeconds() + " s");
    }

    /** Whether the consumer holds a connection now: its metrics may be read from any thread. */
    private boolean connectedNow() {
        Metric count = connections;
        return count != null && ((Number) count.metricValue()).doubleValue() > 0;
    }

    private boolean connectedWithinGrace() {
        return System.nanoTime() - seenNanos <= grace.toNanos();
    }

}
