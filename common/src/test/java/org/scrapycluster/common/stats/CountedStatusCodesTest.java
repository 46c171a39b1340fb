package org.scrapycluster.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

class CountedStatusCodesTest {

    @Test
    void theListedCodesAndFailedDownloadsAsTheir504() {
        CountedStatusCodes counted = new CountedStatusCodes(true, List.of(200, 404));
        assertEquals(Set.of(200, 404, 504), counted.all());
        assertTrue(counted.countsResponse(200));
        assertFalse(counted.countsResponse(301));
        assertTrue(counted.countsFailedDownloads());
        // a response answered 504 by the site is counted only when 504 is listed; a failed download always is
        assertFalse(counted.countsResponse(504));
        assertTrue(new CountedStatusCodes(true, List.of(504)).countsResponse(504));
    }

    @Test
    void nothingWhenStatusCodesAreOff() {
        CountedStatusCodes counted = new CountedStatusCodes(false, List.of(200, 504));
        assertEquals(Set.of(), counted.all());
        assertFalse(counted.countsResponse(200));
        assertFalse(counted.countsFailedDownloads());
    }

    @Test
    void fromTheSettingsOfStatusCodes() {
        assertEquals(Set.of(200, 404, 403, 504), CountedStatusCodes.from(settings(Map.of())).all());
        assertEquals(Set.of(500, 504), CountedStatusCodes.from(settings(Map.of("STATS_RESPONSE_CODES", "[500]"))).all());
        assertEquals(Set.of(), CountedStatusCodes.from(settings(Map.of("STATS_STATUS_CODES", "false"))).all());
    }

    private static Settings settings(Map<String, String> set) {
        return Settings.load("status-codes", new SettingsSources(null, Map.of(), set));
    }
}
