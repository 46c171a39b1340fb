package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.FreePorts;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A real broker goes away and comes back: the pipeline's {@code kafka} health check follows it without a page to
 * publish, down for a node that has nothing to publish while Kafka is away, and up again after a page failed, as for a
 * node whose last page's crawl was stopped meanwhile.
 */
class KafkaPipelineOutageTest {

    @Test
    void theHealthCheckIsUpAgainWhenKafkaIsBackWithNoPageToPublish(@TempDir Path kafkaData) throws Exception {
        int port = FreePorts.pick();
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        HealthRegistry health = new HealthRegistry();
        KafkaPipeline pipeline = new KafkaPipeline();
        try {
            Settings settings = Settings.defaults("crawler").withLauncherValues(Map.of("KAFKA_HOSTS", kafka.bootstrapServers(),
                    "KAFKA_CLIENT_PROPERTIES", Map.of("delivery.timeout.ms", 4000, "max.block.ms", 4000, "request.timeout.ms", 3000)));
            pipeline.open(new PipelineContext(settings, "link", new CrawlerMetrics(new SimpleMeterRegistry(), "link", "n1"), health,
                    Clock.systemUTC()));
            pipeline.process(page("before")).get();

            kafka.close();
            ExecutionException failed = assertThrows(ExecutionException.class, () -> pipeline.process(page("during")).get());
            assertInstanceOf(KafkaPipeline.KafkaUnavailableException.class, failed.getCause());
            assertFalse(kafkaUp(health));

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).until(() -> kafkaUp(health));
        } finally {
            pipeline.close();
            kafka.close();
        }
    }

    @Test
    void theHealthCheckIsDownWhileKafkaIsGoneWithNoPageToPublish(@TempDir Path kafkaData) throws Exception {
        int port = FreePorts.pick();
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        HealthRegistry health = new HealthRegistry();
        KafkaPipeline pipeline = new KafkaPipeline();
        try {
            Settings settings = Settings.defaults("crawler").withLauncherValues(Map.of("KAFKA_HOSTS", kafka.bootstrapServers(),
                    "KAFKA_CLIENT_PROPERTIES", Map.of("request.timeout.ms", 3000)));
            pipeline.open(new PipelineContext(settings, "link", new CrawlerMetrics(new SimpleMeterRegistry(), "link", "n1"), health,
                    Clock.systemUTC()));
            pipeline.process(page("before")).get();
            assertTrue(kafkaUp(health));

            kafka.close();
            Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> !kafkaUp(health));

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).until(() -> kafkaUp(health));
        } finally {
            pipeline.close();
            kafka.close();
        }
    }

    private static boolean kafkaUp(HealthRegistry health) {
        return health.check().checks().get("kafka").isUp();
    }

    private static CrawlResult page(String name) {
        return CrawledPage.of(name).url("http://shop.test/" + name).result();
    }
}
