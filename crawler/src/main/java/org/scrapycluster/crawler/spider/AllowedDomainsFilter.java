package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;

/**
 * {@code allowed-domains}: a link whose network location ({@code host}, {@code host:port}, {@code user@host}), in lower
 * case, is one of the crawl's {@code allowed_domains} or below one, as Scrapy compares them (any link when none is
 * given; docs/api.md).
 */
public final class AllowedDomainsFilter implements CrawlLinkFilter {

    @Override
    public String name() {
        return "allowed-domains";
    }

    @Override
    public boolean allows(PageLink link, LinkExtractor crawlRules) {
        return crawlRules.allowsDomain(link.url());
    }
}
