package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.Spider;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/** Finds the spider {@code SPIDER_NAME} names among the built-ins and those of the plugin folders. */
public final class Spiders {

    private Spiders() {
    }

    /**
     * The spider called {@code name}, configured with {@code settings}.
     *
     * @throws SettingsException naming the spiders there are, when none is called so
     */
    public static Spider named(String name, Settings settings) {
        return ExtensionLoader.of(Spider.class, "spiders", settings).named("SPIDER_NAME", name);
    }
}
