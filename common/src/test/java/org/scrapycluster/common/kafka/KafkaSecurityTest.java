package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.testing.ResourceFixtures;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;

/**
 * Kafka over TLS through {@code KAFKA_CLIENT_PROPERTIES}: a real broker whose only client listener speaks TLS and asks for
 * client certificates (the test CA's certificate for 127.0.0.1, the fixtures of {@code tls/}), reached by the producer,
 * consumer and admin client {@link KafkaClients} makes, with PEM files as docs/security.md shows them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaTlsTest {

    private Path dir;
    private EmbeddedKafka broker;

    @BeforeAll
    void startBroker(@TempDir Path folder) throws IOException {
        dir = folder;
        Files.writeString(dir.resolve("server.pem"), text("server.key") + text("server.crt"));
        Files.writeString(dir.resolve("client.pem"), text("client.key") + text("client.crt"));
        Files.writeString(dir.resolve("ca.crt"), text("ca.crt"));
        broker = EmbeddedKafka.startOverTls(1, DataDirectory.temporary("kafka-tls-"), dir.resolve("server.pem"), dir.resolve("ca.crt"));
    }

    @AfterAll
    void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void clientsTrustingTheCaAndPresentingACertificateProduceConsumeAndAdminister() throws Exception {
        KafkaClients clients = clients(Map.of("ssl.keystore.type", "PEM", "ssl.keystore.location", dir.resolve("client.pem")));
        String topic = "tls-test";
        try (Producer<String, String> producer = clients.producer(new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "{\"over\":\"tls\"}")).get(30, TimeUnit.SECONDS);
        }
        List<String> received = new ArrayList<>();
        try (Consumer<String, String> consumer = clients.consumer("tls-group", new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> received.add(r.value()));
                return !received.isEmpty();
            });
        }
        assertEquals(List.of("{\"over\":\"tls\"}"), received);
        try (Admin admin = clients.admin()) {
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
        }
    }

    /** A producer's health reads its reach ({@link TopicReach}): out of reach at once, saying why. */
    @Test
    void aClientWithoutACertificateIsRefusedWithTheHandshakesErrorAndKafkaIsOutOfReachSayingSo() {
        KafkaClients clients = clients(Map.of("default.api.timeout.ms", 10_000, "request.timeout.ms", 5_000));
        try (Admin admin = clients.admin()) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> admin.listTopics().names().get(30, TimeUnit.SECONDS));
            assertInstanceOf(SslAuthenticationException.class, refused.getCause(), String.valueOf(refused.getCause()));
        }
        try (TopicReach reach = TopicReach.of(clients, "tls-test", Clock.systemUTC())) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> reach.outOfReach().orElse("").contains("certificate_required"));
        }
    }

    /** Clients of the broker, over TLS trusting the test CA, with the client properties {@code more} besides. */
    private KafkaClients clients(Map<String, Object> more) {
        Map<String, Object> properties = new LinkedHashMap<>(more);
        properties.put("security.protocol", "SSL");
        properties.put("ssl.truststore.type", "PEM");
        properties.put("ssl.truststore.location", dir.resolve("ca.crt"));
        StringBuilder yaml = new StringBuilder("{");
        properties.forEach((name, value) -> yaml.append(yaml.length() > 1 ? ", " : "").append(name).append(": ").append(value));
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_HOSTS", broker.bootstrapServers(), "KAFKA_CLIENT_PROPERTIES", yaml.append('}').toString())));
        return new KafkaClients(settings);
    }

    private static String text(String name) {
        return ResourceFixtures.text("tls/" + name);
    }
}
