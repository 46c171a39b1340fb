package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaTest {

    private static final long QUARTER_GIB = 256L * 1024 * 1024;

    @Test
    void aBrokerStartedWithARetentionBoundsWhatEachPartitionOfItsTopicsKeeps() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0, 1, QUARTER_GIB, DataDirectory.temporary("kafka-retention-"));
                Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("retained", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "retained");
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Map<ConfigResource, Config> configs = admin.describeConfigs(Set.of(topic, broker)).all().get(30, TimeUnit.SECONDS);
            assertEquals(Long.toString(QUARTER_GIB), configs.get(topic).get("retention.bytes").value());
            assertEquals("67108864", configs.get(topic).get("segment.bytes").value(), "deleted a 64 MiB segment at a time");
            assertEquals("30000", configs.get(broker).get("log.retention.check.interval.ms").value());
        }
    }

    @Test
    void aBrokerStartedWithoutOneKeepsEverything() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0, 1, DataDirectory.temporary("kafka-keeps-"));
                Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config config = admin.describeConfigs(Set.of(broker)).all().get(30, TimeUnit.SECONDS).get(broker);
            assertEquals("-1", config.get("log.retention.bytes").value());
        }
    }
}
