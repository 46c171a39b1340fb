package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

class CrawlLimitsTest {

    @Test
    void theDefaultsAreTheOriginalsLimits() {
        assertEquals(CrawlLimits.ORIGINAL, CrawlLimits.from(Settings.defaults("requests")));
    }

    @Test
    void anOperatorRaisesThem() {
        assertEquals(new CrawlLimits(10, 5000), CrawlLimits.from(settings(Map.of("CRAWL_MAXDEPTH_LIMIT", "10", "CRAWL_DOMAIN_MAX_PAGES_LIMIT", "5000"))));
    }

    @Test
    void aNegativeLimitIsAnErrorNamingTheSetting() {
        SettingsException e = assertThrows(SettingsException.class, () -> CrawlLimits.from(settings(Map.of("CRAWL_DOMAIN_MAX_PAGES_LIMIT", "-1"))));
        assertEquals("Setting CRAWL_DOMAIN_MAX_PAGES_LIMIT (from the command line) cannot be negative", e.getMessage());
    }

    private static Settings settings(Map<String, String> set) {
        return Settings.load("requests", new SettingsSources(null, Map.of(), set));
    }
}
