package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code KAFKA_HOSTS}: entries no broker can answer at stop a service at start; a name that does not resolve is waited for. */
class BootstrapServersTest {

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapServersTest.class);

    @Test
    void namesAddressesAndBracketedIpv6AddressesWithTheirPortsAreRead() {
        BootstrapServers brokers = BootstrapServers.of(hosts("kafka-1.internal:9092, 10.0.0.5:9093,[::1]:9094"));
        assertEquals(List.of("kafka-1.internal", "10.0.0.5", "::1"), brokers.hosts());
        assertEquals("kafka-1.internal:9092,10.0.0.5:9093,[::1]:9094", brokers.text());
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "kafka:", ":9092", "kafka:port", "kafka:0", "kafka:70000", "kafka 1:9092", "[::1:9092"})
    void anEntryNoBrokerCanAnswerAtStopsTheServiceNamingTheSetting(String entry) {
        SettingsException refused = assertThrows(SettingsException.class, () -> new KafkaClients(hosts("kafka-0:9092," + entry)));
        assertTrue(refused.getMessage().startsWith("Setting KAFKA_HOSTS (from the environment) has a bad entry: '" + entry + "' "),
                refused.getMessage());
    }

    @Test
    void aResolvableBrokerIsNotWaitedFor() throws InterruptedException {
        try (CapturedLog log = CapturedLog.start(BootstrapServersTest.class, Level.INFO)) {
            BootstrapServers.of(hosts("nothing.invalid:9092,127.0.0.1:9092")).awaitResolvable(LOG);
            assertEquals(List.of(), log.lines(), "neither a wait nor a return after one");
        }
    }

    @Test
    void whileNoBrokerResolvesTheWaitGoesOnSaidOnceUntilTheServiceStops() throws Exception {
        BootstrapServers brokers = BootstrapServers.of(hosts("nothing.invalid:9092"));
        AtomicReference<Throwable> ended = new AtomicReference<>();
        try (CapturedLog log = CapturedLog.start(BootstrapServersTest.class, Level.INFO)) {
            Thread waiting = Thread.ofPlatform().start(() -> {
                try {
                    brokers.awaitResolvable(LOG);
                } catch (Throwable e) {
                    ended.set(e);
                }
            });
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !log.events().isEmpty());
            waiting.interrupt();
            waiting.join(Duration.ofSeconds(10));
            assertTrue(ended.get() instanceof InterruptedException, String.valueOf(ended.get()));
            assertEquals(1, log.events().size(), log.lines().toString());
            assertTrue(log.lines().getFirst().contains("No broker of KAFKA_HOSTS (nothing.invalid:9092) resolves"), log.lines().toString());
        }
    }

    private static Settings hosts(String value) {
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of("KAFKA_HOSTS", value), Map.of()));
    }
}
