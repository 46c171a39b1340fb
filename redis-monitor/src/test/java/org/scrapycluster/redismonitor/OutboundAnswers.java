package org.scrapycluster.redismonitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.scrapycluster.common.kafka.TopicPartitions;

/**
 * Reads a test's outbound topic (or any topic of JSON messages) from its beginning, keeping every
 * message received, each with the time it was read and its Kafka timestamp.
 */
public final class OutboundAnswers implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final KafkaConsumer<String, String> consumer;
    private final List<Received> received = new ArrayList<>();

    /**
     * A message, when the test read it ({@link System#nanoTime()}) and its Kafka timestamp (epoch
     * milliseconds at which its producer sent it).
     */
    public record Received(JsonNode answer, long readAtNanos, long timestamp) {
    }

    public OutboundAnswers(String bootstrap, String topic) {
        this(clientOf(bootstrap), topic);
    }

    /**
     * Reads {@code topic} with a client of {@code client}'s properties: the brokers, and how to reach them (a cluster's
     * {@code KAFKA_CLIENT_PROPERTIES}, TLS say), as {@code KafkaClients.consumerProperties(null)} gives them.
     */
    public OutboundAnswers(Properties client, String topic) {
        createTopic(client, topic);
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = TopicPartitions.of(consumer, topic, PATIENCE);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Waits up to a minute for a message that {@code which} accepts (already received or new). */
    public JsonNode await(Predicate<JsonNode> which) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            for (Received message : received) {
                if (which.test(message.answer())) {
                    return message.answer();
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no such answer within " + PATIENCE + "; received " + answers());
            }
            poll(Duration.ofMillis(100));
        }
    }

    /** Waits for the answer carrying {@code uuid}. */
    public JsonNode awaitUuid(String uuid) {
        return await(answer -> uuid.equals(answer.path("uuid").asText(null)));
    }

    /** Waits until at least {@code count} messages have arrived. */
    public List<JsonNode> awaitCount(int count) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (received.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + received.size() + " of " + count + " answers within " + PATIENCE);
            }
            poll(Duration.ofMillis(100));
        }
        return answers();
    }

    /** Reads what arrives within {@code time}. */
    public List<JsonNode> readFor(Duration time) {
        long deadline = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < deadline) {
            poll(Duration.ofMillis(100));
        }
        return answers();
    }

    /**
     * Reads every message the topic holds now, up to its end when called: once the monitors have finished with every
     * job (their keys deleted, which is after Kafka took the answers), all they answered.
     */
    public List<JsonNode> readToEnd() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment(), PATIENCE);
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey(), PATIENCE) < end.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the topic was not read to its end " + ends + " within " + PATIENCE);
            }
            poll(Duration.ofMillis(100));
        }
        return answers();
    }

    /** Every message received so far. */
    public List<JsonNode> answers() {
        return received.stream().map(Received::answer).toList();
    }

    /** Every message received so far, with its arrival time. */
    public List<Received> receivedWithTimes() {
        return List.copyOf(received);
    }

    private void poll(Duration time) {
        for (ConsumerRecord<String, String> record : consumer.poll(time)) {
            try {
                received.add(new Received(MAPPER.readTree(record.value()), System.nanoTime(), record.timestamp()));
            } catch (JsonProcessingException e) {
                throw new AssertionError("an outbound message is not JSON: " + record.value(), e);
            }
        }
    }

    private static Properties clientOf(String bootstrap) {
        Properties client = new Properties();
        client.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return client;
    }

    private static void createTopic(Properties client, String topic) {
        Properties properties = new Properties();
        client.stringPropertyNames().stream().filter(AdminClientConfig.configNames()::contains)
                .forEach(name -> properties.put(name, client.getProperty(name)));
        try (Admin admin = Admin.create(properties)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + topic, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
