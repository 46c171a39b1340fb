package org.scrapycluster.kafkamonitor.stats;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.scrapycluster.kafkamonitor.rejection.RejectionKind;

/**
 * The Kafka monitor's Micrometer meters, scraped at {@code /metrics}:
 * {@code kafka_monitor_records_consumed_total}, {@code kafka_monitor_requests_accepted_total{plugin}},
 * {@code kafka_monitor_requests_rejected_total{reason}} (unreadable, invalid, refused),
 * {@code kafka_monitor_batch_seconds} (from a batch's poll to its commit),
 * {@code kafka_monitor_redis_retries_total} and {@code kafka_monitor_kafka_retries_total} (attempts
 * repeated while Redis or Kafka was away).
 */
public final class IntakeMetrics {

    private final MeterRegistry registry;
    private final Counter consumed;
    private final Map<String, Counter> accepted = new ConcurrentHashMap<>();
    private final Map<RejectionKind, Counter> rejected = new ConcurrentHashMap<>();
    private final Timer batches;
    private final Counter redisRetries;
    private final Counter kafkaRetries;

    public IntakeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.consumed = Counter.builder("kafka.monitor.records.consumed")
                .description("Records taken from the incoming topic").register(registry);
        this.batches = Timer.builder("kafka.monitor.batch")
                .description("Time from a batch's poll to the commit of its offsets").register(registry);
        this.redisRetries = Counter.builder("kafka.monitor.redis.retries")
                .description("Batch writes repeated because Redis failed").register(registry);
        this.kafkaRetries = Counter.builder("kafka.monitor.kafka.retries")
                .description("Publications or commits repeated because Kafka failed").register(registry);
        for (RejectionKind kind : RejectionKind.values()) {
            rejectedCounter(kind);
        }
    }

    public void consumed(int records) {
        consumed.increment(records);
    }

    public void accepted(String plugin) {
        accepted.computeIfAbsent(plugin, name -> Counter.builder("kafka.monitor.requests.accepted")
                .description("Requests written to Redis, by plugin").tag("plugin", name).register(registry)).increment();
    }

    public void rejected(RejectionKind kind) {
        rejectedCounter(kind).increment();
    }

    public Timer batches() {
        return batches;
    }

    public void redisRetry() {
        redisRetries.increment();
    }

    public void kafkaRetry() {
        kafkaRetries.increment();
    }

    private Counter rejectedCounter(RejectionKind kind) {
        return rejected.computeIfAbsent(kind, k -> Counter.builder("kafka.monitor.requests.rejected")
                .description("Records rejected, by reason").tag("reason", k.tag()).register(registry));
    }
}
