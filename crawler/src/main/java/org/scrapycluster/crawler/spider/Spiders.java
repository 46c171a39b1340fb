package org.scrapycluster.crawler.spider;

import java.util.List;
import java.util.ServiceLoader;

import org.scrapycluster.common.settings.SettingsException;

/** Finds a spider by name among those listed in {@code META-INF/services/org.scrapycluster.crawler.spider.Spider}. */
public final class Spiders {

    private Spiders() {
    }

    /**
     * The spider called {@code name}.
     *
     * @throws SettingsException naming the spiders there are, when none is called so
     */
    public static Spider named(String name) {
        List<Spider> all = ServiceLoader.load(Spider.class).stream().map(ServiceLoader.Provider::get).toList();
        return all.stream().filter(spider -> spider.name().equals(name)).findFirst()
                .orElseThrow(() -> new SettingsException("No spider called '" + name + "'; there are: "
                        + all.stream().map(Spider::name).sorted().toList()));
    }
}
