package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class StatsWindowTest {

    @Test
    void namesBecomeSecondsAndUnknownNamesAreSkipped() {
        assertEquals(List.of(900L, 3600L), StatsWindow.parse(List.of("SECONDS_15_MINUTE", "SECONDS_1_HOUR", "SECONDS_DUMB")));
    }

    @Test
    void theOriginalDefaults() {
        assertEquals(List.of(900L, 3600L, 21600L, 43200L, 86400L, 604800L), StatsWindow.parse(List.of("SECONDS_15_MINUTE",
                "SECONDS_1_HOUR", "SECONDS_6_HOUR", "SECONDS_12_HOUR", "SECONDS_1_DAY", "SECONDS_1_WEEK")));
    }

    @Test
    void aliasesDoNotRepeatAWindow() {
        assertEquals(List.of(86400L), StatsWindow.parse(List.of("SECONDS_24_HOUR", "SECONDS_1_DAY")));
        assertEquals(List.of(), StatsWindow.parse(List.of()));
    }
}
