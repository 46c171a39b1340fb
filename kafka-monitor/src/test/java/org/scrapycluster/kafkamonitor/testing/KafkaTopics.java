package org.scrapycluster.kafkamonitor.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.TopicPartitions;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

/** Producing to and reading whole topics of the test broker. */
public final class KafkaTopics implements AutoCloseable {

    private final KafkaClients clients;
    private final Producer<byte[], byte[]> producer;

    /** A producer that takes records of up to {@code maxRecordBytes}. */
    public KafkaTopics(String bootstrap, int maxRecordBytes) {
        this.clients = new KafkaClients(Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("KAFKA_HOSTS", bootstrap))));
        Properties properties = clients.producerProperties();
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(maxRecordBytes));
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(Math.max(64L << 20, 2L * maxRecordBytes)));
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        // one batch in flight: on a topic the broker is still creating (the monitor under test and this producer both
        // asked for it), a first batch refused with NOT_LEADER_OR_FOLLOWER was retried after later ones were appended,
        // and the idempotent producer held it as out of order until its delivery timed out two minutes later
        properties.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public KafkaTopics(String bootstrap) {
        this(bootstrap, 1 << 20);
    }

    /** Sends {@code values} to {@code topic} in order and waits until Kafka has all of them. */
    public void send(String topic, List<byte[]> values) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(values.size());
        for (byte[] value : values) {
            sent.add(producer.send(new ProducerRecord<>(topic, value)));
        }
        for (Future<RecordMetadata> future : sent) {
            try {
                future.get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot send to " + topic, e);
            }
        }
    }

    /** Sends {@code value} to one partition of {@code topic} and waits for Kafka to have it. */
    public void sendToPartition(String topic, int partition, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, null, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic + "-" + partition, e);
        }
    }

    /** The offsets {@code group} has committed, summed over the partitions of {@code topic}. */
    public long committed(String group, String topic) {
        try (Admin admin = clients.admin()) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().stream()
                    .filter(entry -> entry.getKey().topic().equals(topic) && entry.getValue() != null)
                    .mapToLong(entry -> entry.getValue().offset())
                    .sum();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of " + group, e);
        }
    }

    /** Creates {@code topic} with one partition. */
    public void createTopic(String topic) {
        try (Admin admin = clients.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + topic, e);
        }
    }

    /** Whether Kafka has {@code topic}. */
    public boolean exists(String topic) {
        try (Admin admin = clients.admin()) {
            return admin.listTopics().names().get().contains(topic);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the topics", e);
        }
    }

    /** Members of {@code group} with at least one partition assigned, once the group is stable (0 while it rebalances). */
    public int membersWithPartitions(String group) {
        try (Admin admin = clients.admin()) {
            var description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            if (description.groupState() != GroupState.STABLE) {
                return 0;
            }
            return (int) description.members().stream().filter(member -> !member.assignment().topicPartitions().isEmpty()).count();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + group, e);
        }
    }

    /** Sends UTF-8 texts. */
    public void sendText(String topic, String... texts) {
        List<byte[]> values = new ArrayList<>();
        for (String text : texts) {
            values.add(text.getBytes(StandardCharsets.UTF_8));
        }
        send(topic, values);
    }

    /**
     * Reads {@code topic} from the beginning until the records read satisfy {@code enough}, or
     * fails after {@code timeout}; returns the values as UTF-8 text.
     */
    public List<String> readUntil(String topic, Duration timeout, Predicate<List<String>> enough) {
        List<String> values = new ArrayList<>();
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(clients.consumerProperties(null),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = TopicPartitions.of(consumer, topic, timeout);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Awaitility.await().atMost(timeout).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
                return enough.test(values);
            });
        }
        return values;
    }

    @Override
    public void close() {
        producer.close();
    }
}
