package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

/**
 * How {@code ./scrapy-cluster feed} spends {@code KAFKA_FEED_TIMEOUT} on a request: the producer's wait
 * for the topic's metadata and its wait for the acknowledgement together fit in it, so that the tool
 * answers within it (docs/api.md).
 */
class FeedTimeoutTest {

    @Test
    void theWaitForMetadataAndTheDeliveryTogetherFitInTheFeedTimeout() {
        Settings settings = settings(Map.of("KAFKA_FEED_TIMEOUT", "3", "KAFKA_PRODUCER_BATCH_LINGER_MS", "25",
                "KAFKA_CLIENT_PROPERTIES", "{max.block.ms: 60000, delivery.timeout.ms: 120000}"));

        Properties properties = FeedCommand.producerProperties(settings, Duration.ofSeconds(3));

        long metadata = millis(properties, ProducerConfig.MAX_BLOCK_MS_CONFIG);
        long delivery = millis(properties, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
        assertTrue(metadata + delivery <= 3_000, metadata + " ms for metadata, then " + delivery
                + " ms for the delivery, in a feed timeout of 3000 ms");
    }

    @Test
    void aFeedTimeoutNoLongerThanTheLingerIsRefusedByName() {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> new KafkaClients(settings(Map.of("KAFKA_FEED_TIMEOUT", "1", "KAFKA_PRODUCER_BATCH_LINGER_MS", "1000"))).feedTimeout());

        assertTrue(refused.getMessage().contains("KAFKA_FEED_TIMEOUT"), refused.getMessage());
    }

    private static Settings settings(Map<String, String> values) {
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), values));
    }

    private static long millis(Properties properties, String name) {
        return Long.parseLong(properties.getProperty(name));
    }
}
