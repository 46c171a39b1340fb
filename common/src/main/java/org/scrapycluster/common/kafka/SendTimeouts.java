package org.scrapycluster.common.kafka;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer's waits for one record whose sender waits for its acknowledgement at most a send
 * timeout ({@code KAFKA_FEED_TIMEOUT} of the REST gateway's {@code /feed}, docs/rest.md, and of
 * {@code ./scrapy-cluster feed}, docs/api.md): for the topic's metadata, before a send
 * returns, at most half of what the linger leaves; for the delivery, from then on, the rest. Both
 * together fit in the send timeout, so the producer gives a record up by the time its sender stops
 * waiting for it, and a record reported as not sent is not delivered later all the same.
 */
public final class SendTimeouts {

    private SendTimeouts() {
    }

    /**
     * {@code max.block.ms}, {@code delivery.timeout.ms} and {@code request.timeout.ms} for a send
     * timeout of {@code sendTimeout}, longer than {@code linger} ({@code linger.ms}).
     *
     * @throws IllegalArgumentException when {@code sendTimeout} is not longer than {@code linger}
     */
    public static Properties within(Duration sendTimeout, long linger) {
        long send = sendTimeout.toMillis();
        if (send <= linger) {
            throw new IllegalArgumentException("a send timeout of " + send + " ms is not longer than the linger of " + linger + " ms");
        }
        long metadata = (send - linger) / 2;
        long delivery = send - metadata;
        Properties properties = new Properties();
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(metadata));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(delivery));
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(delivery - linger));
        return properties;
    }
}
