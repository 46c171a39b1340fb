package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

/**
 * The consumer lag the {@code KafkaConsumerLag} alert reads while the monitor holds its batch with its partitions
 * paused (Redis away): requests keep arriving and wait on the incoming topic, and the lag says so. The Kafka client's
 * own {@code records-lag-max} had no value by then; its sample window is cut to 1 s from 30 s here, so that a lag
 * measured only from fetches would have none within seconds, not a minute.
 */
@ExtendWith(SharedStack.class)
class PausedLagTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    @Test
    void theLagGrowsWhileThePartitionsArePaused(EmbeddedStack stack) {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("paused-lag-redis"));
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            MonitorSettings settings = MonitorSettings.forStack(stack, server.port())
                    .set("KAFKA_CLIENT_PROPERTIES", "{metrics.sample.window.ms: 1000}");
            String group = settings.prefix() + "-group";
            kafka.createTopic(settings.incomingTopic());
            try (RunningMonitor monitor = RunningMonitor.start(settings.build()).awaitHealthy()) {
                kafka.sendText(settings.incomingTopic(), crawls("before", 5));
                Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 5);

                server.stop();
                kafka.sendText(settings.incomingTopic(), crawls("held", 5));
                Awaitility.await().atMost(WAIT).until(() -> monitor.counter("kafka.monitor.redis.retries") >= 1);
                kafka.sendText(settings.incomingTopic(), crawls("waiting", 40));

                Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .until(() -> monitor.highestGauge("kafka.monitor.records.lag") >= 40);
            }
        }
    }

    private static String[] crawls(String site, int count) {
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add("{\"url\":\"http://www." + site + "-example.com/" + i + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\"}");
        }
        return requests.toArray(String[]::new);
    }
}
