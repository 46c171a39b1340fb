package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.Extension;
import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.spider.Spiders;

/** ITEM_PIPELINES in the original's name → order form: the defaults, reordered, one removed, an unknown one. */
class PipelineOrderTest {

    @Test
    void theDefaultsLogThenPublish() {
        assertEquals(List.of("logging", "kafka"), pipelines(Map.of()));
    }

    @Test
    void anOrderSetInSettingsReordersTheBuiltIns() {
        assertEquals(List.of("kafka", "logging"), pipelines(Map.of("ITEM_PIPELINES", "{logging: 500}")));
    }

    @Test
    void aNullOrderRemovesABuiltIn() {
        assertEquals(List.of("kafka"), pipelines(Map.of("ITEM_PIPELINES", "{logging: null}")));
    }

    @Test
    void anUnknownNameIsAStartUpErrorListingTheAvailableOnes() {
        SettingsException e = assertThrows(SettingsException.class, () -> pipelines(Map.of("ITEM_PIPELINES", "{tally: 200}")));
        assertTrue(e.getMessage().matches(".*names 'tally', but there are no item pipelines of that name; there are: .*\\bkafka, logging\\b.*"),
                e.getMessage());
    }

    /** A typo in a removal would otherwise leave the built-in meant loaded, and say nothing. */
    @Test
    void aNullEntryThatMatchesNothingIsAStartUpErrorAsAnUnknownNameIs() {
        SettingsException e = assertThrows(SettingsException.class, () -> pipelines(Map.of("ITEM_PIPELINES", "{loging: null}")));
        assertTrue(e.getMessage().matches(".*names 'loging', but there are no item pipelines of that name;"
                + " there are: .*\\bkafka, logging\\b.*"), e.getMessage());
        SettingsException byClass = assertThrows(SettingsException.class,
                () -> pipelines(Map.of("ITEM_PIPELINES", "{com.example.GonePipeline: null}")));
        assertTrue(byClass.getMessage().contains("names com.example.GonePipeline, which is neither one of the item pipelines"),
                byClass.getMessage());
        assertEquals(List.of("kafka"), pipelines(Map.of("ITEM_PIPELINES", "{" + LoggingPipeline.class.getName() + ": null}")),
                "a built-in removed by its class");
    }

    @Test
    void anEntryNamingADefaultByItsClassReplacesTheDefaultEntry() {
        assertEquals(List.of("kafka", "logging"), pipelines(Map.of("ITEM_PIPELINES", "{" + LoggingPipeline.class.getName() + ": 500}")));
        SettingsException e = assertThrows(SettingsException.class,
                () -> pipelines(Map.of("ITEM_PIPELINES", "{logging: 50, " + LoggingPipeline.class.getName() + ": 500}")));
        assertTrue(e.getMessage().endsWith("names " + LoggingPipeline.class.getName() + " twice, as logging and as "
                + LoggingPipeline.class.getName() + "; keep one of the two entries"), e.getMessage());
    }

    @Test
    void twoEntriesWithOneOrderAreRefused() {
        SettingsException e = assertThrows(SettingsException.class, () -> pipelines(Map.of("ITEM_PIPELINES", "{logging: 300}")));
        assertTrue(e.getMessage().contains("gives the order 300 to both"), e.getMessage());
    }

    @Test
    void anUnknownSpiderNamesTheSpidersThereAre() {
        SettingsException e = assertThrows(SettingsException.class, () -> Spiders.named("nosuch", settings(Map.of())));
        assertTrue(e.getMessage().contains("there are: handoff, link, wandering"), e.getMessage());
    }

    @Test
    void aSpiderMayBeNamedByItsClass() {
        Spider spider = Spiders.named("org.scrapycluster.crawler.spider.WanderingSpider", settings(Map.of()));
        assertEquals("wandering", spider.name());
    }

    private static List<String> pipelines(Map<String, String> set) {
        return ExtensionLoader.of(ItemPipeline.class, "item pipelines", settings(set)).ordered("ITEM_PIPELINES").stream()
                .map(Extension::name).toList();
    }

    private static Settings settings(Map<String, String> set) {
        return Settings.load("crawler", new SettingsSources(null, Map.of(), set));
    }
}
