package org.scrapycluster.standalone.acceptance;

import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.AnswerFixtures;
import org.scrapycluster.redismonitor.ClusterStatistics;
import org.scrapycluster.redismonitor.RedisMonitorFactory;

/**
 * Stats requests of every type sent through Kafka and answered in the original's shapes (the
 * {@code stats-*} fixtures of {@code redis-monitor}), against a Redis database holding only the
 * statistics those fixtures describe. The Kafka monitor runs as one of the two Kafka monitor nodes
 * the fixtures list and the Redis monitor as their one Redis monitor, so that their own heartbeats
 * are the ones answered; neither counts requests, as in the fixtures. (An unknown stats type never
 * reaches the Redis monitor through Kafka: the Kafka monitor's schema refuses it.)
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatsAnswersAcceptanceTest {

    private AcceptanceCluster cluster;

    @BeforeAll
    void start(EmbeddedStack stack) {
        cluster = new AcceptanceCluster(stack).set("STATS_TOTAL", false).set("STATS_PLUGINS", false);
        ClusterStatistics.write(cluster.redis());
        cluster.start(0, new PinnedNode(new KafkaMonitorFactory(), new NodeIdentity("km-host-1", "6f1c2e9a0b11")),
                new PinnedNode(new RedisMonitorFactory(), new NodeIdentity("rm-host", "0123456789ab")));
        Awaitility.await().atMost(Duration.ofMinutes(1))
                .until(() -> cluster.redis().sync().exists("stats:redis-monitor:self:rm-host:0123456789ab") > 0);
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka-monitor", "redis-monitor", "rest", "spider", "machine", "queue", "crawler", "all"})
    void answersEveryTypeInTheOriginalsShape(String type) {
        String appid = AcceptanceCluster.unique("app");
        String uuid = AcceptanceCluster.unique("uuid");
        long from = AcceptanceCluster.now();
        cluster.send("uuid", uuid, "appid", appid, "stats", type);
        JsonNode answer = cluster.outbound().awaitUuid(uuid);
        AnswerFixtures.assertAnswer("stats-" + type + ".json", Map.of("uuid", uuid, "appid", appid), answer, from,
                AcceptanceCluster.now());
    }
}
