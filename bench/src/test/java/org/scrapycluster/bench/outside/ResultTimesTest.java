package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** A crawl's span by its results' timestamps, read from the ends of each partition's range on the embedded Kafka. */
@ExtendWith(SharedStack.class)
class ResultTimesTest {

    /** An hour ago: the broker refuses timestamps more than an hour ahead of its clock. */
    private static final long BASE = System.currentTimeMillis() - 3_600_000;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final EmbeddedStack stack;
    private final String topic = "result-times-" + UUID.randomUUID().toString().substring(0, 8);
    private final TopicPartition first = new TopicPartition(topic, 0);
    private final TopicPartition second = new TopicPartition(topic, 1);

    ResultTimesTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void topic() throws Exception {
        try (Admin admin = Admin.create(common())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
    }

    @Test
    void spansTheEarliestToTheLatestTimestampAmongTheEndsOfEachPartitionsRange() {
        try (KafkaProducer<String, String> producer = producer()) {
            // the first partition: 100 records of an earlier crawl, then the crawl's 500, 10 ms apart, but for two
            // appended out of their order near the ends and one far out in the middle, which is not read
            for (int offset = 0; offset < 600; offset++) {
                long timestamp = switch (offset) {
                    case 101 -> BASE - 5;
                    case 350 -> BASE - 100_000;
                    case 598 -> BASE + 4_997;
                    default -> offset < 100 ? BASE - 1_000_000 : BASE + 10L * (offset - 100);
                };
                send(producer, 0, timestamp);
            }
            // the second: fifty, within the first's span
            for (int offset = 0; offset < 50; offset++) {
                send(producer, 1, BASE + 1_000 + offset);
            }
        }

        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            Duration span = ResultTimes.span(consumer, Map.of(first, 100L, second, 0L), Map.of(first, 600L, second, 50L), PATIENCE);

            assertEquals(Duration.ofMillis(4_997 + 5), span);
            assertEquals(Set.of(first, second), consumer.assignment(), "both partitions stay assigned, for their end offsets");
            assertEquals(Set.of(first, second), consumer.paused());
        }
    }

    @Test
    void readsAShortRangeWhole() {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int offset = 0; offset < 2 * ResultTimes.ENDS; offset++) {
                send(producer, 1, BASE + (offset == ResultTimes.ENDS ? 60_000 : offset));
            }
        }

        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            Duration span = ResultTimes.span(consumer, Map.of(first, 0L, second, 0L), Map.of(first, 0L, second, 200L), PATIENCE);

            assertEquals(Duration.ofMillis(60_000), span, "the middle record of 200 is read");
        }
    }

    @Test
    void refusesARangeWithoutRecords() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> ResultTimes.span(consumer, Map.of(first, 0L), Map.of(first, 0L), PATIENCE));

            assertTrue(refused.getMessage().startsWith("no record between the offsets"), refused.getMessage());
        }
    }

    private void send(KafkaProducer<String, String> producer, int partition, long timestamp) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, timestamp, null, "page")).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("Kafka did not take a record", e);
        }
    }

    /** Sends at once: the test waits for each record. */
    private KafkaProducer<String, String> producer() {
        Properties properties = common();
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(common(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private Properties common() {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap());
        return properties;
    }
}
