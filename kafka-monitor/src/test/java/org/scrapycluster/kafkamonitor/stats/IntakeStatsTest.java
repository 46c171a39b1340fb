package org.scrapycluster.kafkamonitor.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.kafkamonitor.testing.PrivateRedis;
import org.slf4j.event.KeyValuePair;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** The Kafka monitor's statistics keys (docs/compatibility.md §2.6, §10.1) in a Redis of their own, and the stats dump. */
class IntakeStatsTest {

    @RegisterExtension
    static final PrivateRedis REDIS = new PrivateRedis("intake-stats");


    @Test
    void totalFailAndPluginCountersHaveAWindowPerKnownStatsTimeAndALifetime() {
        try (IntakeStats stats = new IntakeStats(settings(Map.of("STATS_TIMES", "SECONDS_15_MINUTE,SECONDS_1_HOUR,SECONDS_DUMB")),
                REDIS.connection(), "6f1c2e9a0b11", Clock.systemUTC(), List.of("ScraperHandler", "ActionHandler"))) {
            stats.total(3);
            stats.fail();
            stats.plugin("ScraperHandler");
            stats.plugin("ScraperHandler");
            stats.plugin("UnknownHandler");
        }

        assertEquals(new TreeSet<>(Set.of(
                "buckets:stats:kafka-monitor:total:900", "buckets:stats:kafka-monitor:total:3600", "stats:kafka-monitor:total:lifetime",
                "buckets:stats:kafka-monitor:fail:900", "buckets:stats:kafka-monitor:fail:3600", "stats:kafka-monitor:fail:lifetime",
                "buckets:stats:kafka-monitor:ScraperHandler:900", "buckets:stats:kafka-monitor:ScraperHandler:3600",
                "stats:kafka-monitor:ScraperHandler:lifetime")), new TreeSet<>(REDIS.connection().sync().keys("*")),
                "the windows' buckets apart from the original's names, where a Python Kafka monitor keeps its sorted sets");
        assertEquals(3, REDIS.connection().sync().pfcount("stats:kafka-monitor:total:lifetime"));
        try (IntakeStats stats = new IntakeStats(settings(Map.of("STATS_TIMES", "SECONDS_15_MINUTE,SECONDS_1_HOUR")), REDIS.connection(),
                "6f1c2e9a0b11", Clock.systemUTC(), List.of("ScraperHandler", "ActionHandler"))) {
            assertEquals(Map.ofEntries(Map.entry("total_900", 3L), Map.entry("total_3600", 3L), Map.entry("total_lifetime", 3L),
                    Map.entry("fail_900", 1L), Map.entry("fail_3600", 1L), Map.entry("fail_lifetime", 1L),
                    Map.entry("plugin_ScraperHandler_900", 2L), Map.entry("plugin_ScraperHandler_3600", 2L),
                    Map.entry("plugin_ScraperHandler_lifetime", 2L), Map.entry("plugin_ActionHandler_900", 0L),
                    Map.entry("plugin_ActionHandler_3600", 0L), Map.entry("plugin_ActionHandler_lifetime", 0L)), stats.values());
        }
    }

    @Test
    void withoutStatsTimesOnlyLifetimesAndEachKindCanBeTurnedOff() {
        try (IntakeStats stats = new IntakeStats(settings(Map.of("STATS_TIMES", "[]", "STATS_PLUGINS", "false")), REDIS.connection(), "6f1c2e9a0b11",
                Clock.systemUTC(), List.of("ScraperHandler"))) {
            stats.total(1);
            stats.fail();
            stats.plugin("ScraperHandler");
        }
        assertEquals(new TreeSet<>(Set.of("stats:kafka-monitor:total:lifetime", "stats:kafka-monitor:fail:lifetime")),
                new TreeSet<>(REDIS.connection().sync().keys("*")));

        REDIS.connection().sync().flushall();
        try (IntakeStats stats = new IntakeStats(settings(Map.of("STATS_TOTAL", "false")), REDIS.connection(), "6f1c2e9a0b11",
                Clock.systemUTC(), List.of("ScraperHandler"))) {
            stats.total(1);
            stats.fail();
        }
        assertEquals(List.of(), REDIS.connection().sync().keys("*"));
    }

    @Test
    void theStatsDumpLogsEveryValueAsAField() {
        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(IntakeStats.class, Level.INFO);
             IntakeStats stats = new IntakeStats(settings(Map.of("STATS_DUMP", "1", "STATS_TIMES", "SECONDS_15_MINUTE")), REDIS.connection(),
                "6f1c2e9a0b11", Clock.systemUTC(), List.of("ScraperHandler"))) {
            stats.total(2);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> log.events().stream()
                    .anyMatch(event -> event.getFormattedMessage().equals("Kafka Monitor Stats Dump") && fields(event).get("total_900").equals(2L)));
            logged = log.events();
        }
        ILoggingEvent dump = logged.stream().filter(event -> event.getFormattedMessage().equals("Kafka Monitor Stats Dump")).toList().getLast();
        assertEquals(List.of("total_900", "total_lifetime", "fail_900", "fail_lifetime", "plugin_ScraperHandler_900",
                "plugin_ScraperHandler_lifetime"), List.copyOf(fields(dump).keySet()));
        assertEquals(Level.INFO, dump.getLevel());
    }

    private static Map<String, Object> fields(ILoggingEvent event) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (KeyValuePair pair : event.getKeyValuePairs()) {
            fields.put(pair.key, pair.value);
        }
        return fields;
    }

    private static IntakeStats.Config settings(Map<String, String> values) {
        return IntakeStats.Config.from(Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), values)));
    }
}
