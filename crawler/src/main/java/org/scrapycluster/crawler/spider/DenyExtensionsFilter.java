package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;

/** {@code deny-extensions}: no link whose path ends in one of the crawl's {@code deny_extensions} (Scrapy's list when the crawl gives none). */
public final class DenyExtensionsFilter implements CrawlLinkFilter {

    @Override
    public String name() {
        return "deny-extensions";
    }

    @Override
    public boolean allows(PageLink link, LinkExtractor crawlRules) {
        return crawlRules.allowsExtension(link.url());
    }
}
