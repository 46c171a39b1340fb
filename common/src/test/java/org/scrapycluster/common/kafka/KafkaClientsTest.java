package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

@ExtendWith(SharedStack.class)
class KafkaClientsTest {

    @Test
    void topicNamesFollowThePrefix() {
        Topics topics = Topics.from(Settings.defaults("redis-monitor"));
        assertEquals("demo.incoming", topics.incoming());
        assertEquals("demo.incoming_rejected", topics.incomingRejected());
        assertEquals("demo.crawled_firehose", topics.crawledFirehose());
        assertEquals("demo.crawled_app1", topics.crawled("app1"));
        assertEquals("demo.outbound_firehose", topics.outboundFirehose());
        assertEquals("demo.outbound_app1", topics.outbound("app1"));
        assertThrows(IllegalArgumentException.class, () -> topics.outbound("my app"));
        assertEquals(Optional.of("demo.outbound_app1"), topics.outboundIfLegal("app1"));
        assertEquals(Optional.empty(), topics.outboundIfLegal("my app"));
        assertEquals(Optional.empty(), topics.outboundIfLegal("a".repeat(240)), "a legal appid making a name of 254 characters");
        assertThrows(IllegalArgumentException.class, () -> Topics.withPrefix("bad prefix"));

        Settings monitor = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_INCOMING_TOPIC", "custom.in", "KAFKA_TOPIC_PREFIX", "prod")));
        assertEquals("custom.in", Topics.from(monitor).incoming());
        assertEquals("prod.outbound_firehose", Topics.from(monitor).outboundFirehose());
        assertEquals("demo.incoming", Topics.from(Settings.defaults("rest")).incoming());
    }

    @Test
    void settingsBecomeClientPropertiesAndPassThroughPropertiesWin() {
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of("KAFKA_HOSTS", "k1:9092,k2:9092"),
                Map.of("KAFKA_CLIENT_PROPERTIES", "{security.protocol: SSL, linger.ms: 5, ssl.truststore.location: /etc/ts.jks}")));
        Properties producer = new KafkaClients(settings).producerProperties();
        assertEquals("k1:9092,k2:9092", producer.get("bootstrap.servers"));
        assertEquals("5", producer.get("linger.ms"));
        assertEquals("4194304", producer.get("buffer.memory"));
        assertEquals("1048576", producer.get("max.request.size"));
        assertEquals("524288", producer.get("batch.size"));
        assertFalse(new KafkaClients(Settings.defaults("rest")).producerProperties().containsKey("batch.size"),
                "Kafka's own batch size where the service declares none");
        assertEquals("-1", producer.get("send.buffer.bytes"), "a batch of pages in one write");
        assertFalse(new KafkaClients(Settings.defaults("rest")).producerProperties().containsKey("send.buffer.bytes"));
        assertEquals("SSL", producer.get("security.protocol"));
        assertEquals("/etc/ts.jks", producer.get("ssl.truststore.location"));

        Properties grouped = new KafkaClients(Settings.defaults("kafka-monitor")).consumerProperties("demo-group");
        assertEquals("earliest", grouped.get("auto.offset.reset"));
        assertEquals("true", grouped.get("enable.auto.commit"));
        assertEquals("5000", grouped.get("auto.commit.interval.ms"));
        assertEquals("10485760", grouped.get("max.partition.fetch.bytes"));
        assertEquals("10000", grouped.get("session.timeout.ms"), "the original's session, not the Java client's 45 s");
        assertEquals("30000", groupConsumer("{session.timeout.ms: 30000}").get("session.timeout.ms"));
        assertFalse(groupConsumer("{group.protocol: CONSUMER}").containsKey("session.timeout.ms"),
                "the broker sets it in that protocol, whose consumers refuse it");

        Properties groupless = new KafkaClients(Settings.defaults("rest")).consumerProperties(null);
        assertEquals("latest", groupless.get("auto.offset.reset"));
        assertEquals("false", groupless.get("enable.auto.commit"), "a consumer without a group cannot commit");
        assertFalse(groupless.containsKey("group.id"));
        assertFalse(groupless.containsKey("session.timeout.ms"));
    }

    @Test
    void theLargestRecordIsTheRequestSizeSetAndNoMoreThanTheBuffer() {
        assertEquals(1_048_576, largestRecord(Map.of()));
        assertEquals(4_194_304, largestRecord(Map.of("KAFKA_PRODUCER_MAX_REQUEST_SIZE", "10485760")), "the buffer refuses more");
        assertEquals(2_000_000, largestRecord(Map.of("KAFKA_CLIENT_PROPERTIES", "{max.request.size: 2000000}")));
        assertEquals(1_048_576, new KafkaClients(Settings.defaults("rest")).largestRecordBytes(), "Kafka's own where none is declared");
    }

    @Test
    void theFeedTimeoutMustOutlastTheLingerTheProducerUses() {
        Settings lingering = Settings.load("rest", new SettingsSources(null, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES",
                "{linger.ms: 15000}")));
        assertEquals("Setting KAFKA_FEED_TIMEOUT (from the defaults) is 10000 ms, which must be longer than the producer's linger "
                + "of 15000 ms "
                + "(KAFKA_PRODUCER_BATCH_LINGER_MS, or linger.ms in KAFKA_CLIENT_PROPERTIES)",
                assertThrows(SettingsException.class, () -> new KafkaClients(lingering).feedTimeout()).getMessage());

        Settings unreadable = Settings.load("rest", new SettingsSources(null, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES",
                "{linger.ms: 5ms}")));
        assertTrue(assertThrows(SettingsException.class, () -> new KafkaClients(unreadable).feedTimeout()).getMessage()
                .startsWith("Setting KAFKA_CLIENT_PROPERTIES (from the command line) gives linger.ms the value '5ms'"));

        KafkaClients kafkaDefault = new KafkaClients(Settings.load("rest", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_CLIENT_PROPERTIES", "{linger.ms: null}"))));
        assertEquals(Duration.ofSeconds(10), kafkaDefault.feedTimeout());
        assertEquals("5003", kafkaDefault.producerProperties(kafkaDefault.feedTimeout()).getProperty("delivery.timeout.ms"),
                "counted from Kafka's own linger of 5 ms");
    }

    private static long largestRecord(Map<String, String> set) {
        return new KafkaClients(Settings.load("crawler", new SettingsSources(null, Map.of(), set))).largestRecordBytes();
    }

    private static Properties groupConsumer(String clientProperties) {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES", clientProperties)));
        return new KafkaClients(settings).consumerProperties("demo-group");
    }

    @Test
    void producesAndConsumesThroughTheBroker(EmbeddedStack stack) throws Exception {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_HOSTS", stack.kafkaBootstrap(), "KAFKA_CLIENT_PROPERTIES", "{client.id: clients-test}")));
        KafkaClients clients = new KafkaClients(settings);
        String topic = "clients-test-" + UUID.randomUUID();
        byte[] request = "{\"url\":\"http://example.com/\",\"appid\":\"a\",\"crawlid\":\"c\"}".getBytes(StandardCharsets.UTF_8);

        try (Producer<String, byte[]> producer = clients.bytesProducer()) {
            producer.send(new ProducerRecord<>(topic, request)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the broker did not take the record", e);
        }

        List<ConsumerRecord<String, byte[]>> received = new ArrayList<>();
        try (Consumer<String, byte[]> consumer = clients.bytesConsumer("group-" + UUID.randomUUID())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
            });
        }
        assertEquals(new String(request, StandardCharsets.UTF_8), new String(received.getFirst().value(), StandardCharsets.UTF_8));

        try (Admin admin = clients.admin()) {
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
        }
        try (Consumer<String, String> strings = clients.consumer(null, new StringDeserializer())) {
            List<TopicPartition> partitions = strings.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            strings.assign(partitions);
            strings.seekToBeginning(partitions);
            List<String> texts = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                strings.poll(Duration.ofMillis(200)).forEach(r -> texts.add(r.value()));
                return !texts.isEmpty();
            });
            assertEquals(new String(request, StandardCharsets.UTF_8), texts.getFirst(), "a consumer without a group reads by assignment");
        }
    }

    /**
     * A stats answer listing 20,000 domains, 1.3 MB, goes through a topic that takes Kafka's default 1 MiB: the Redis
     * monitor's producer compresses it; uncompressed, as the original sends answers, the broker refuses it.
     */
    @Test
    void theRedisMonitorsAnswersAreCompressedSoThatOneAboveTheTopicsLimitGoesThrough(EmbeddedStack stack) throws Exception {
        String topic = "answers-" + UUID.randomUUID();
        StringBuilder answer = new StringBuilder("{\"uuid\":\"u1\",\"domains\":{");
        for (int i = 0; i < 20_000; i++) {
            answer.append(i == 0 ? "" : ",").append("\"shop-").append(Integer.toString(i * 7_919, 36)).append(".example\":")
                    .append("{\"total\":").append(i % 500).append(",\"high_priority\":").append(i % 90).append(",\"low_priority\":-3}");
        }
        byte[] large = answer.append("}}").toString().getBytes(StandardCharsets.UTF_8);
        assertTrue(large.length > 1_300_000, large.length + " bytes");
        Settings compressing = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_HOSTS", stack.kafkaBootstrap())));
        Settings plain = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_HOSTS", stack.kafkaBootstrap(), "KAFKA_PRODUCER_COMPRESSION", "none")));
        try (Admin admin = new KafkaClients(compressing).admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("max.message.bytes", "1048588"))))
                    .all().get(30, TimeUnit.SECONDS);
        }

        try (Producer<String, byte[]> producer = new KafkaClients(plain).bytesProducer()) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>(topic, large)).get(30, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof RecordTooLargeException, refused.toString());
        }
        try (Producer<String, byte[]> producer = new KafkaClients(compressing).bytesProducer()) {
            producer.send(new ProducerRecord<>(topic, large)).get(30, TimeUnit.SECONDS);
        }
        Settings gateway = Settings.load("rest", new SettingsSources(null, Map.of(), Map.of("KAFKA_HOSTS", stack.kafkaBootstrap())));
        try (Consumer<String, byte[]> consumer = new KafkaClients(gateway).bytesConsumer(null)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<byte[]> read = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> read.add(record.value()));
                return !read.isEmpty();
            });
            assertEquals(new String(large, StandardCharsets.UTF_8), new String(read.getFirst(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aCompressionTheProducerDoesNotKnowIsASettingsError() {
        Settings wrong = Settings.load("redis-monitor", new SettingsSources(null, Map.of(), Map.of("KAFKA_PRODUCER_COMPRESSION", "rar")));
        assertTrue(assertThrows(SettingsException.class, () -> KafkaClients.check(wrong)).getMessage()
                .startsWith("Setting KAFKA_PRODUCER_COMPRESSION (from the command line) is 'rar', which Kafka's producer refuses: "));
    }

    @Test
    void aClientPropertyKafkaWouldRefuseIsASettingsErrorBeforeAnyClientIsMade() {
        Settings wrong = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES",
                "{acks: banana}")));
        assertEquals("Setting KAFKA_CLIENT_PROPERTIES (from the command line) gives acks the value 'banana', which Kafka's clients "
                + "refuse: Invalid value banana for configuration acks: String must be one of: all, -1, 0, 1",
                assertThrows(SettingsException.class, () -> KafkaClients.check(wrong)).getMessage());
        assertThrows(SettingsException.class, () -> KafkaClients.check(Settings.load("rest", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_CLIENT_PROPERTIES", "{request.timeout.ms: soon}")))));
        KafkaClients.check(Settings.load("rest", new SettingsSources(null, Map.of(), Map.of("KAFKA_CLIENT_PROPERTIES",
                "{security.protocol: SASL_SSL, linger.ms: 5, some.interceptor.setting: x, max.block.ms: null}"))));
    }
}
