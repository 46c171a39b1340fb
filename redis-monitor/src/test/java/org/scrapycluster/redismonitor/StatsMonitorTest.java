package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
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
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.stats.RollingWindowCounter;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.stats.StatsDumper;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

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
        writeStatistics(fixture.redis());
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
        fixture.post(JobKeys.stats(stats, appid), uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("stats-" + type + ".json", Map.of("uuid", uuid, "appid", appid), answer, from, MonitorFixture.now());
    }

    @Test
    void dumpsTheOriginalsFieldsToTheLog() {
        Logger logger = (Logger) LoggerFactory.getLogger(StatsDumper.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        Level level = logger.getLevel();
        logger.setLevel(Level.INFO);
        try {
            new StatsDumper(fixture.redis(), Clock.systemUTC(), true, true).dump();
        } finally {
            logger.setLevel(level);
            logger.detachAppender(appender);
        }
        Map<String, Map<String, Object>> dumps = new LinkedHashMap<>();
        for (ILoggingEvent event : appender.list) {
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

    private static void writeStatistics(RedisConnection redis) {
        long now = Instant.now().getEpochSecond();
        window(redis, "stats:kafka-monitor:total:900", 3, now);
        lifetime(redis, "stats:kafka-monitor:total:lifetime", 58);
        pythonWindow(redis, "stats:kafka-monitor:total:3600", 5, now - 7_200);
        pythonWindow(redis, "stats:kafka-monitor:fail:86400", 4, now - 10);
        lifetime(redis, "stats:kafka-monitor:fail:lifetime", 7);
        window(redis, "stats:kafka-monitor:ScraperHandler:900", 2, now);
        lifetime(redis, "stats:kafka-monitor:ScraperHandler:lifetime", 18);
        pythonWindow(redis, "stats:kafka-monitor:StatsHandler:900", 1, now - 1);
        redis.sync().set("stats:kafka-monitor:self:km-host-1:6f1c2e9a0b11", Long.toString(now));
        redis.sync().set("stats:kafka-monitor:self:km-host-1:a1b2c3d4e5f6", Long.toString(now));

        window(redis, "stats:redis-monitor:total:900", 2, now);
        lifetime(redis, "stats:redis-monitor:InfoMonitor:lifetime", 5);
        redis.sync().set("stats:rest:self:rest-host:c4ec35bf9c1a", Long.toString(now));

        for (String heartbeat : List.of("host1:link:aaaaaaaaaaa1", "host1:link:aaaaaaaaaaa2", "host2:link:aaaaaaaaaaa3",
                "host2:other:aaaaaaaaaaa4")) {
            redis.sync().set("stats:crawler:" + heartbeat, Long.toString(now));
        }
        window(redis, "stats:crawler:host1:link:200:3600", 5, now);
        pythonWindow(redis, "stats:crawler:host1:other:200:3600", 5, now - 30);
        window(redis, "stats:crawler:host2:link:200:3600", 4, now);
        pythonWindow(redis, "stats:crawler:host2:link:200:900", 3, now - 1_000);
        lifetime(redis, "stats:crawler:host1:link:200:lifetime", 7);
        lifetime(redis, "stats:crawler:host2:link:504:lifetime", 2);

        queue(redis, "link:a.com:queue", 20);
        queue(redis, "link:b.com:queue", 4);
        queue(redis, "link:c.com:queue", 2);
        queue(redis, "wandering:x.com:queue", 3);
        queue(redis, "wandering:y.com:queue", 1);
    }

    /** Our form of a rolling window: a hash of time buckets. */
    private static void window(RedisConnection redis, String key, long events, long now) {
        RollingWindowCounter counter = new RollingWindowCounter(key, Long.parseLong(key.substring(key.lastIndexOf(':') + 1)));
        redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now), events), now));
    }

    /** A Python component's form of a rolling window: one sorted-set member per event, scored by its time. */
    private static void pythonWindow(RedisConnection redis, String key, int events, long at) {
        for (int i = 0; i < events; i++) {
            redis.sync().zadd(key, at + i / 1000.0, Double.toString(at + i / 1000.0));
        }
    }

    private static void lifetime(RedisConnection redis, String key, int events) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            members.add(key + ":" + i);
        }
        redis.sync().pfadd(key, members.toArray(String[]::new));
    }

    private static void queue(RedisConnection redis, String key, int members) {
        for (int i = 0; i < members; i++) {
            redis.sync().zadd(key, -1, "{\"url\":\"https://x/" + i + "\"}");
        }
    }
}
