package org.scrapycluster.common.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/** A setting kept only for the original's settings files is said to do nothing when a user gives it, and only then. */
class IneffectiveSettingsTest {

    @Test
    void aCompatibilitySettingTheUserGaveIsNamedWithWhereItCameFrom() {
        Settings crawler = Settings.load("crawler", new SettingsSources(null, Map.of("SCHEDULER_QUEUE_TIEOUT", "60"),
                Map.of("SCHEDULER_PERSIST", "false", "QUEUE_HITS", "5")));
        assertEquals(List.of("SCHEDULER_PERSIST (from the command line)", "SCHEDULER_QUEUE_TIMEOUT (from the environment)"),
                IneffectiveSettings.given(crawler).stream().sorted().toList());
        assertEquals(List.of(), IneffectiveSettings.given(Settings.defaults("crawler")), "their defaults are no one's choice");
    }

    @Test
    void theWarningIsOneLineNamingTheServiceAndTheSettings() {
        Settings monitor = Settings.load("redis-monitor", new SettingsSources(null, Map.of(), Map.of("STATS_CYCLE", "10")));
        List<String> lines;
        try (CapturedLog log = CapturedLog.start(IneffectiveSettings.class, Level.WARN)) {
            IneffectiveSettings.warn(monitor);
            IneffectiveSettings.warn(Settings.defaults("redis-monitor"));
            lines = log.lines();
        }
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().startsWith("WARN redis-monitor has no use for STATS_CYCLE (from the command line): accepted so that"),
                lines.getFirst());
    }
}
