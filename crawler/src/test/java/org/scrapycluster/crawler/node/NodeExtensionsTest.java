package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

/** The spider, link filters and middlewares of a node: closed when the node no longer calls them, whatever one throws. */
class NodeExtensionsTest {

    private static final String FILTER = ClosingExtensions.ClosingFilter.class.getName();

    @BeforeEach
    void forget() {
        ClosingExtensions.CLOSED.clear();
    }

    @Test
    void aStartsCheckClosesWhatItMadeTheLastFirstThoughOneThrows() {
        NodeExtensions.check(settings(Map.of("DOWNLOADER_MIDDLEWARES", "{" + ClosingExtensions.ClosingMiddleware.class.getName() + ": 800, "
                + ClosingExtensions.Unclosable.class.getName() + ": 900}")));

        assertEquals(List.of("unclosable", "closing-middleware", "closing-filter", "spider"), List.copyOf(ClosingExtensions.CLOSED));
    }

    @Test
    void whenOneCannotBeMadeThoseMadeBeforeItAreClosed() {
        assertThrows(SettingsException.class, () -> NodeExtensions.load(settings(Map.of("DOWNLOADER_MIDDLEWARES", "{no-such: 800}"))));

        assertEquals(List.of("closing-filter", "spider"), List.copyOf(ClosingExtensions.CLOSED));
    }

    @Test
    void whenOneOfAListCannotBeConfiguredThoseConfiguredBeforeItAreClosed() {
        assertThrows(SettingsException.class, () -> NodeExtensions.load(settings(Map.of("DOWNLOADER_MIDDLEWARES", "{"
                + ClosingExtensions.ClosingMiddleware.class.getName() + ": 800, "
                + ClosingExtensions.Unconfigurable.class.getName() + ": 900}"))));

        assertEquals(List.of("closing-middleware", "closing-filter", "spider"), List.copyOf(ClosingExtensions.CLOSED),
                "not the one that could not be configured: it has nothing to close");
    }

    private static Settings settings(Map<String, String> more) {
        Map<String, String> values = new HashMap<>(more);
        values.put("SPIDER_NAME", ClosingExtensions.ClosingSpider.class.getName());
        values.put("LINK_FILTERS", "{" + FILTER + ": 100}");
        return Settings.load("crawler", new SettingsSources(null, Map.of(), values));
    }
}
