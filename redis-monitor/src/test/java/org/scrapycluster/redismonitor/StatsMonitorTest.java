package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.stats.StatsDumper;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Every stats type against a Redis whose whole keyspace the test controls (a private server):
 * counters in both forms (our bucketed hashes and a Python component's sorted sets), lifetime
 * HyperLogLogs, heartbeats and queues, answered in the original's shapes with crawler counts of
 * one spider on several hosts summed; and the periodic dumps of the same keys.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatsMonitorTest {

    private EmbeddedRedis redisServer;
    private MonitorFixture fixture;
    private String appid;

    @BeforeAll
    void start(EmbeddedStack stack) {
        redisServer = EmbeddedRedis.start(0, DataDirectory.temporary("stats-redis"));
        fixture = MonitorFixture.on(redisServer.port(), stack.kafkaBootstrap(), stack.zookeeperConnect(),
                "STATS_TOTAL", "false", "STATS_PLUGINS", "false");
        appid = MonitorFixture.unique("app");
        ClusterStatistics.write(fixture.redis());
        fixture.startMonitor(new NodeIdentity("rm-host", "0123456789ab"));
        fixture.awaitPresent("stats:redis-monitor:self:rm-host:0123456789ab");
    }

    @AfterAll
    void stop() {
        fixture.close();
        redisServer.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka-monitor", "redis-monitor", "rest", "spider", "machine", "queue", "crawler", "all", "unknown"})
    void answersEveryTypeInTheOriginalsShape(String type) {
        String stats = type.equals("unknown") ? "everything" : type;
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(Keyspace.STATS_REQUEST.fill(stats, appid), uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("stats-" + type + ".json", Map.of("uuid", uuid, "appid", appid), answer, from, MonitorFixture.now());
    }

    @Test
    void dumpsTheOriginalsFieldsToTheLog() {
        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(StatsDumper.class, Level.INFO)) {
            new StatsDumper(fixture.redis(), Clock.systemUTC(), true, true).dump();
            logged = log.events();
        }
        Map<String, Map<String, Object>> dumps = new LinkedHashMap<>();
        for (ILoggingEvent event : logged) {
            Map<String, Object> fields = new LinkedHashMap<>();
            event.getKeyValuePairs().forEach(pair -> fields.put(pair.key, pair.value));
            dumps.put(event.getMessage(), fields);
        }
        assertEquals(List.of("Redis Monitor Stats Dump", "Crawler Stats Dump", "Queue Stats Dump"), List.copyOf(dumps.keySet()));
        assertEquals(Map.of("total_900", 2L, "plugin_InfoMonitor_lifetime", 5L), dumps.get("Redis Monitor Stats Dump"));
        assertEquals(Map.of("link_spider_count", 3L, "link_200_3600", 9L, "link_200_lifetime", 7L, "link_504_lifetime", 2L,
                "other_spider_count", 1L, "other_200_3600", 5L, "unique_spider_count", 2, "total_spider_count", 4L),
                dumps.get("Crawler Stats Dump"));
        assertEquals(Map.of("queue_link", Map.of("spider_backlog", 26L, "num_domains", 3),
                "queue_wandering", Map.of("spider_backlog", 4L, "num_domains", 2), "total_backlog", 30L), dumps.get("Queue Stats Dump"));
    }

    @Test
    void aRejectedJobCountsInTheTotalButNotAsAFailure(EmbeddedStack stack) {
        try (EmbeddedRedis own = EmbeddedRedis.start(0, DataDirectory.temporary("stats-fail-redis"));
                MonitorFixture counting = MonitorFixture.on(own.port(), stack.kafkaBootstrap(), stack.zookeeperConnect())) {
            counting.startMonitor();
            String uuid = MonitorFixture.unique("uuid");
            counting.post("stop:link:" + MonitorFixture.unique("app"), uuid); // a stop without crawlid is rejected
            JsonNode answer = counting.answers().awaitUuid(uuid);
            assertEquals(true, answer.has("error"), answer.toString());
            counting.awaitPresent("stats:redis-monitor:total:lifetime");
            MonitorFixture.sleep(Duration.ofSeconds(2)); // two flushes of the counters (one a second) later
            assertEquals(0L, counting.redis().sync().exists("stats:redis-monitor:fail:lifetime"));
        }
    }
}
