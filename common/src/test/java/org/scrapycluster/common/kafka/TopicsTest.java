package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

class TopicsTest {

    @Test
    void theTopicsOfAServiceComeFromItsPrefixAndItsIncomingTopic() {
        Topics monitor = Topics.from(settings("kafka-monitor", Map.of("KAFKA_TOPIC_PREFIX", "tour", "KAFKA_INCOMING_TOPIC", "tour.in")));
        assertEquals("tour.in", monitor.incoming());
        assertEquals("tour.crawled_firehose", monitor.crawledFirehose());
        assertEquals("demo.incoming", Topics.from(settings("rest", Map.of())).incoming(), "the gateway's KAFKA_PRODUCER_TOPIC");
        assertEquals("demo.outbound_firehose", Topics.from(settings("redis-monitor", Map.of())).outboundFirehose());
    }

    @Test
    void aNameKafkaCannotTakeIsASettingsErrorNamingTheSetting() {
        assertEquals("Setting KAFKA_TOPIC_PREFIX (from the command line) is 'my topics', which cannot begin a Kafka topic name: "
                + "give 1 to 247 letters, digits, '.', '_' or '-'",
                assertThrows(SettingsException.class, () -> Topics.from(settings("redis-monitor", Map.of("KAFKA_TOPIC_PREFIX", "my topics"))))
                        .getMessage());
        assertEquals("Setting KAFKA_PRODUCER_TOPIC (from the command line) is '', which is not a Kafka topic name: "
                + "give 1 to 249 letters, digits, '.', '_' or '-'",
                assertThrows(SettingsException.class, () -> Topics.from(settings("rest", Map.of("KAFKA_PRODUCER_TOPIC", ""))))
                        .getMessage());
        assertThrows(SettingsException.class, () -> Topics.from(settings("kafka-monitor", Map.of("KAFKA_TOPIC_PREFIX", "x".repeat(248)))));
    }

    private static Settings settings(String service, Map<String, String> sets) {
        return Settings.load(service, new SettingsSources(null, Map.of(), sets));
    }
}
