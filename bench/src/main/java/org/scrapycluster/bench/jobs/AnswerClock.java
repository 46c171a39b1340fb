package org.scrapycluster.bench.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.scrapycluster.bench.BenchmarkTopics;
import org.scrapycluster.common.kafka.TopicPartitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a benchmark's outbound topic in a thread of its own and notes when each answer arrived,
 * by its {@code uuid}, with its size: the far end of a measured round trip (this benchmark's, and
 * standalone's {@code bench round-trip}).
 */
public final class AnswerClock implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AnswerClock.class);
    private static final Pattern UUID = Pattern.compile("\"uuid\":\"([^\"]+)\"");
    private static final Duration POLL = Duration.ofNanos(200_000);

    private final Admin admin;
    private final String topic;
    private final KafkaConsumer<String, String> consumer;
    private final Map<String, Arrival> arrivals = new ConcurrentHashMap<>();
    private final Thread reader;

    /** When an answer arrived ({@link System#nanoTime()}) and how many bytes of JSON it had. */
    public record Arrival(long atNanos, int bytes) {
    }

    /** Creates {@code topic} (deleted again on close) and reads it from its end. */
    public AnswerClock(String bootstrap, String topic) throws InterruptedException {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        this.topic = topic;
        try {
            BenchmarkTopics.create(admin, topic);
        } catch (IllegalStateException | InterruptedException e) {
            admin.close();
            throw e;
        }
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(16 * 1024 * 1024));
        consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = TopicPartitions.of(consumer, topic, Duration.ofMinutes(1));
        if (partitions.isEmpty()) {
            consumer.close();
            admin.close();
            throw new IllegalStateException("Kafka named no partitions of " + topic + " within a minute of its creation");
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        reader = Thread.ofPlatform().name("bench-answers").daemon().start(this::read);
    }

    /** Waits up to {@code patience} for the answer carrying {@code uuid}. */
    public Arrival await(String uuid, Duration patience) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        Arrival arrival;
        while ((arrival = arrivals.get(uuid)) == null) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("no answer for " + uuid + " within " + patience);
            }
            Thread.sleep(POLL);
        }
        return arrival;
    }

    private void read() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    Matcher uuid = UUID.matcher(record.value());
                    if (uuid.find()) {
                        arrivals.put(uuid.group(1), new Arrival(now, record.serializedValueSize()));
                    }
                }
            }
        } catch (WakeupException closing) {
            // close() woke the poll up
        } finally {
            consumer.close();
        }
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            reader.join(Duration.ofSeconds(10));
            admin.deleteTopics(List.of(topic)).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("Could not delete the benchmark's topic {}: {}", topic, e.getCause().toString());
        } finally {
            admin.close();
        }
    }
}
