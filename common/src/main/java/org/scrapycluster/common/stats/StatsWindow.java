package org.scrapycluster.common.stats;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window names of the {@code STATS_TIMES} setting (docs/compatibility.md §7.5) and their lengths.
 * Keys use the number of seconds ({@code stats:kafka-monitor:total:900}), never the name.
 */
public enum StatsWindow {
    SECONDS_1_MINUTE(60),
    SECONDS_15_MINUTE(900),
    SECONDS_30_MINUTE(1_800),
    SECONDS_1_HOUR(3_600),
    SECONDS_2_HOUR(7_200),
    SECONDS_4_HOUR(14_400),
    SECONDS_6_HOUR(21_600),
    SECONDS_12_HOUR(43_200),
    SECONDS_24_HOUR(86_400),
    SECONDS_1_DAY(86_400),
    SECONDS_48_HOUR(172_800),
    SECONDS_2_DAY(172_800),
    SECONDS_3_DAY(259_200),
    SECONDS_7_DAY(604_800),
    SECONDS_1_WEEK(604_800),
    SECONDS_30_DAY(2_592_000);

    private static final Logger LOG = LoggerFactory.getLogger(StatsWindow.class);

    private final long seconds;

    StatsWindow(long seconds) {
        this.seconds = seconds;
    }

    public long seconds() {
        return seconds;
    }

    /**
     * The window lengths named by a {@code STATS_TIMES} list, in order and without repeats; an
     * unknown name is skipped with a warning, as in the original.
     */
    public static List<Long> parse(List<String> names) {
        Set<Long> windows = new LinkedHashSet<>();
        for (String name : names) {
            try {
                windows.add(valueOf(name.trim()).seconds);
            } catch (IllegalArgumentException e) {
                LOG.warn("Skipping unknown statistics window '{}' in STATS_TIMES", name);
            }
        }
        return new ArrayList<>(windows);
    }
}
