package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.scrapycluster.api.CrawlerExtension;
import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.extension.ExtensionCloser;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.spider.Spiders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extensions a node calls for every request, as its settings name them: its spider ({@code SPIDER_NAME}), link
 * filters ({@code LINK_FILTERS}) and downloader middlewares ({@code DOWNLOADER_MIDDLEWARES}), made and configured
 * together, and closed together once the node no longer calls them (docs/extending.md). The item pipelines open and
 * close on their own ({@link org.scrapycluster.crawler.pipeline.Pipelines}).
 *
 * @param spider      the spider
 * @param linkFilters the link filters, in their order
 * @param middlewares the downloader middlewares, in their order
 */
record NodeExtensions(Spider spider, List<LinkFilter> linkFilters, List<DownloaderMiddleware> middlewares) {

    /** What the extensions' closes share when the node stops, or when a start's check or a failed load ends. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(NodeExtensions.class);
    private static final ExtensionCloser<CrawlerExtension> CLOSER = new ExtensionCloser<>(LOG, "crawler extension", CrawlerExtension::name);

    /**
     * Makes and configures the extensions {@code settings} name; when one cannot be made, closes those made before it.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting of the one that cannot be made
     */
    static NodeExtensions load(Settings settings) {
        List<CrawlerExtension> made = new ArrayList<>();
        try {
            Spider spider = Spiders.named(settings.getString("SPIDER_NAME"), settings);
            made.add(spider);
            List<LinkFilter> linkFilters = ExtensionLoader.of(LinkFilter.class, "link filters", settings).ordered("LINK_FILTERS");
            made.addAll(linkFilters);
            return new NodeExtensions(spider, linkFilters, DownloadChain.middlewares(settings));
        } catch (RuntimeException e) {
            CLOSER.closeAll(made, CLOSE_WAIT);
            throw e;
        }
    }

    /** Makes the extensions {@code settings} name, as a start would, and closes them. */
    static void check(Settings settings) {
        load(settings).close(CLOSE_WAIT);
    }

    /** Closes every extension, the last middleware first and the spider last, within {@code wait} together. */
    void close(Duration wait) {
        List<CrawlerExtension> all = new ArrayList<>();
        all.add(spider);
        all.addAll(linkFilters);
        all.addAll(middlewares);
        CLOSER.closeAll(all, wait);
    }
}
