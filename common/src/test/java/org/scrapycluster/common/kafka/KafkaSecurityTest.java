package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
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
 * Kafka's security through {@code KAFKA_CLIENT_PROPERTIES}, with the producer, consumer and admin client {@link KafkaClients}
 * makes: real brokers whose only client listener speaks TLS and asks for client certificates (the test CA's certificate
 * for 127.0.0.1, the fixtures of {@code tls/}; PEM files as docs/operations.md, "Kafka over TLS", shows them), or asks for a
 * SASL login (PLAIN).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaSecurityTest {

    private static final String SASL_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule required";

    private Path dir;
    private EmbeddedKafka tls;
    private EmbeddedKafka sasl;

    @BeforeAll
    void startBrokers(@TempDir Path folder) {
        dir = folder;
        Path serverPem = ResourceFixtures.write(dir.resolve("server.pem"), "tls/server.key", "tls/server.crt");
        ResourceFixtures.write(dir.resolve("client.pem"), "tls/client.key", "tls/client.crt");
        tls = EmbeddedKafka.startOverTls(1, DataDirectory.temporary("kafka-tls-"), serverPem,
                ResourceFixtures.write(dir.resolve("ca.crt"), "tls/ca.crt"));
        SequencedMap<String, String> users = new LinkedHashMap<>();
        users.put("broker", "broker-secret");
        users.put("sc", "sc-secret");
        sasl = EmbeddedKafka.startWithSaslLogins(1, DataDirectory.temporary("kafka-sasl-"), users);
    }

    @AfterAll
    void stopBrokers() {
        for (EmbeddedKafka broker : new EmbeddedKafka[] {tls, sasl}) {
            if (broker != null) {
                broker.close();
            }
        }
    }

    @Test
    void clientsTrustingTheCaAndPresentingACertificateProduceConsumeAndAdminister() throws Exception {
        roundTrip(tlsClients(Map.of("ssl.keystore.type", "PEM", "ssl.keystore.location", dir.resolve("client.pem"))));
    }

    /** A producer's health reads its reach ({@link TopicReach}): out of reach at once, saying why. */
    @Test
    void aClientWithoutACertificateIsRefusedWithTheHandshakesErrorAndKafkaIsOutOfReachSayingSo() {
        assertRefused(tlsClients(Map.of()), SslAuthenticationException.class, "certificate_required");
    }

    @Test
    void clientsLoggingInProduceConsumeAndAdminister() throws Exception {
        roundTrip(saslClients("sc-secret"));
    }

    @Test
    void aClientWithAWrongPasswordIsRefusedSayingSo() {
        assertRefused(saslClients("wrong"), SaslAuthenticationException.class, "Invalid username or password");
    }

    private static void roundTrip(KafkaClients clients) throws Exception {
        String topic = "secured-test";
        try (Producer<String, String> producer = clients.producer(new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "{\"over\":\"a secured listener\"}")).get(30, TimeUnit.SECONDS);
        }
        List<String> received = new ArrayList<>();
        try (Consumer<String, String> consumer = clients.consumer("secured-group", new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> received.add(r.value()));
                return !received.isEmpty();
            });
        }
        assertEquals(List.of("{\"over\":\"a secured listener\"}"), received);
        try (Admin admin = clients.admin()) {
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
        }
    }

    private static void assertRefused(KafkaClients clients, Class<? extends Throwable> refusal, String reason) {
        try (Admin admin = clients.admin()) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> admin.listTopics().names().get(30, TimeUnit.SECONDS));
            assertInstanceOf(refusal, refused.getCause(), String.valueOf(refused.getCause()));
        }
        try (TopicReach reach = TopicReach.of(clients, "secured-test", Clock.systemUTC())) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> reach.outOfReach().orElse("").contains(reason));
        }
    }

    /** Clients of the TLS broker, trusting the test CA, with the client properties {@code more} besides. */
    private KafkaClients tlsClients(Map<String, Object> more) {
        Map<String, Object> properties = new LinkedHashMap<>(more);
        properties.put("security.protocol", "SSL");
        properties.put("ssl.truststore.type", "PEM");
        properties.put("ssl.truststore.location", dir.resolve("ca.crt"));
        return clients(tls, properties);
    }

    /** Clients of the SASL broker, logging in as {@code sc} with {@code password}. */
    private KafkaClients saslClients(String password) {
        return clients(sasl, Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", "'" + SASL_LOGIN + " username=\"sc\" password=\"" + password + "\";'"));
    }

    /** Clients of {@code broker} given {@code properties} as KAFKA_CLIENT_PROPERTIES (values as YAML writes them), short-lived. */
    private static KafkaClients clients(EmbeddedKafka broker, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>(properties);
        all.put("default.api.timeout.ms", 10_000);
        all.put("request.timeout.ms", 5_000);
        StringBuilder yaml = new StringBuilder("{");
        all.forEach((name, value) -> yaml.append(yaml.length() > 1 ? ", " : "").append(name).append(": ").append(value));
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("KAFKA_HOSTS", broker.bootstrapServers(), "KAFKA_CLIENT_PROPERTIES", yaml.append('}').toString())));
        return new KafkaClients(settings);
    }
}
