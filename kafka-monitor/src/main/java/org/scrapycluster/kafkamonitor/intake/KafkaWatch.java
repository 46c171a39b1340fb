package org.scrapycluster.kafkamonitor.intake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.metrics.Health;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the monitor's consumer reaches Kafka. Kafka is unavailable once the consumer has held no connection for
 * {@code KAFKA_UNAVAILABLE_AFTER} (10 s; a consumer in a group always holds one to the group coordinator), or once
 * Kafka has left the questions about the incoming topic unanswered for 30 s ({@link TopicReach}): a broker that hangs
 * (a frozen process, a full disk) keeps its connections open and answers nothing. The outage is said once, and its end
 * once, when Kafka answers a question asked after the outage began, so that a connection being made to a broker that
 * is still away is no return. Observed on the consumer's thread; the health check may be read from any thread, and
 * looks at the connections and the questions itself.
 */
final class KafkaWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaWatch.class);
    private final String hosts;
    private final String consuming;
    private final Duration grace;
    private final TopicReach reach;
    private final Clock clock;
    private volatile Metric connections;
    private volatile long seenNanos = System.nanoTime();
    /** When the outage said began; null while there is none. Written on the consumer's thread. */
    private volatile Instant outageSince;

    /**
     * @param hosts     the bootstrap servers, for the log
     * @param consuming what the consumer does when it works, for the health check
     * @param grace     how long the consumer may be without a connection before Kafka is reported unavailable, whole seconds
     * @param reach     asks Kafka about the incoming topic; closed with this watch
     * @param clock     when an outage begins, on {@code reach}'s clock
     */
    KafkaWatch(String hosts, String consuming, Duration grace, TopicReach reach, Clock clock) {
        this.hosts = hosts;
        this.consuming = consuming;
        this.grace = grace;
        this.reach = reach;
        this.clock = clock;
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

    /** Looks at the connections and the questions now, and says so when Kafka went away or came back. */
    void observe() {
        Optional<String> unavailable = unavailable();
        Instant since = outageSince;
        if (since == null && unavailable.isPresent()) {
            outageSince = clock.instant();
            LOG.warn("Kafka unavailable at {}: {}; retrying", hosts, unavailable.get());
        } else if (since != null && unavailable.isEmpty() && reach.answeredSince(since)) {
            outageSince = null;
            LOG.info("Kafka is back at {}", hosts);
        }
    }

    /** Whether Kafka answers the consumer, as last observed. */
    boolean answers() {
        observe();
        return outageSince == null;
    }

    /**
     * Up while the consumer holds a connection, looked at now (the consumer's thread may be held up for a while, as by
     * Redis calls that wait out their timeout, and look at them only later) or within the grace period, and Kafka
     * answers the questions; after an outage, once Kafka answered one asked since it began.
     */
    Health health() {
        if (connections == null) {
            return Health.down("starting");
        }
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            return Health.down(unavailable.get());
        }
        Instant since = outageSince;
        return since == null || reach.answeredSince(since) ? Health.up(consuming)
                : Health.down("Kafka at " + hosts + " has answered no question since it was found unavailable at " + since);
    }

    /** Why Kafka is unavailable, looked at now; empty while it is not. */
    private Optional<String> unavailable() {
        Metric count = connections;
        if (count != null && ((Number) count.metricValue()).doubleValue() > 0) {
            seenNanos = System.nanoTime();
        } else if (System.nanoTime() - seenNanos > grace.toNanos()) {
            return Optional.of("no connection to Kafka at " + hosts + " for more than " + grace.toSeconds() + " s");
        }
        return reach.outOfReach();
    }

    @Override
    public void close() {
        reach.close();
    }
}
