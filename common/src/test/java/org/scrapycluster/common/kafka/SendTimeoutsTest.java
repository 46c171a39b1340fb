package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * How the producer spends {@code KAFKA_FEED_TIMEOUT} on one fed request: its wait for the topic's
 * metadata and its wait for the acknowledgement together fit in it, so that {@code /feed} (docs/rest.md)
 * and {@code ./scrapy-cluster feed} answer within it, and Kafka's producer takes the settings.
 */
class SendTimeoutsTest {

    @Test
    void theWaitForMetadataAndTheDeliveryTogetherFitInTheFeedTimeout() {
        for (long linger : new long[] {0, 5, 2_000, 9_998}) {
            Properties timeouts = SendTimeouts.within(Duration.ofSeconds(10), linger);
            long metadata = millis(timeouts, ProducerConfig.MAX_BLOCK_MS_CONFIG);
            long delivery = millis(timeouts, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
            long request = millis(timeouts, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
            assertTrue(metadata + delivery <= 10_000, "linger " + linger + ": " + metadata + " ms for metadata, then "
                    + delivery + " ms for the delivery, in a feed timeout of 10000 ms");
            assertTrue(linger + request <= delivery, "linger " + linger + ": Kafka's producer refuses a request timeout"
                    + " beyond the delivery timeout less the linger");
            assertTrue(request > 0, "linger " + linger);
        }
    }

    @Test
    void kafkasProducerTakesThem() {
        Properties properties = SendTimeouts.within(Duration.ofMillis(10), 9);
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "9");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer())) {
            assertTrue(producer.metrics().size() > 0);
        }
    }

    @Test
    void aSendTimeoutNoLongerThanTheLingerLeavesNoTimeToWait() {
        assertThrows(IllegalArgumentException.class, () -> SendTimeouts.within(Duration.ofMillis(25), 25));
    }

    private static long millis(Properties properties, String name) {
        return Long.parseLong(properties.getProperty(name));
    }
}
