package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * How many records of the incoming topic wait for this monitor, the most over its partitions: the gauge
 * {@code kafka_monitor_records_lag} that the {@code KafkaConsumerLag} alert reads (docs/operations.md, "Monitoring"). The
 * Kafka client's own {@code records-lag-max} is measured from fetch responses only, so it has no value a minute after
 * the partitions were paused, while the monitor holds its batch and requests pile up. While consuming, this lag is the
 * one the consumer learnt from its fetches, at no cost; while holding, Kafka is asked for the partitions' end offsets,
 * at most every {@value #ASK_SECONDS} s. Updated on the consumer's thread, read from any.
 */
final class IncomingLag {

    private static final long ASK_SECONDS = 10;
    private static final Duration ASK_PERIOD = Duration.ofSeconds(ASK_SECONDS);
    /** How long the held consumer waits for the answer; a stop wakes it at once. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);

    private volatile double records = Double.NaN;
    private long askedNanos = System.nanoTime() - ASK_PERIOD.toNanos();

    /** A lag not known yet, its gauge registered in {@code meters}. */
    IncomingLag(MeterRegistry meters) {
        Gauge.builder("kafka.monitor.records.lag", this, lag -> lag.records)
                .description("Records of the incoming topic this monitor has not taken yet, the most over its partitions")
                .register(meters);
    }

    /**
     * After a poll of the partitions: the lag the consumer knows from its fetches, when it knows one; none without
     * partitions, so that a lag does not outlive the partitions it was measured on.
     */
    void fetched(Consumer<?, ?> consumer) {
        Set<TopicPartition> partitions = consumer.assignment();
        long most = partitions.isEmpty() ? 0 : -1;
        for (TopicPartition partition : partitions) {
            OptionalLong lag = consumer.currentLag(partition);
            if (lag.isPresent()) {
                most = Math.max(most, lag.getAsLong());
            }
        }
        if (most >= 0) {
            records = most;
        }
    }

    /** While the partitions are paused: how far Kafka's partitions reach beyond the consumer's positions, asked when due. */
    void paused(Consumer<?, ?> consumer) {
        long now = System.nanoTime();
        Set<TopicPartition> partitions = consumer.assignment();
        if (now - askedNanos < ASK_PERIOD.toNanos() || partitions.isEmpty()) {
            return;
        }
        askedNanos = now;
        try {
            long most = 0;
            for (Map.Entry<TopicPartition, Long> end : consumer.endOffsets(partitions, ANSWER_TIMEOUT).entrySet()) {
                most = Math.max(most, end.getValue() - consumer.position(end.getKey(), ANSWER_TIMEOUT));
            }
            records = most;
        } catch (TimeoutException e) {
            // Kafka is away as well: the lag stays as last known, and its own alert says so
        }
    }
}
