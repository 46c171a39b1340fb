package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;

/** {@code allowed-domains}: a link to a host of the crawl's {@code allowed_domains} or below one, whatever the port (any host when none is given). */
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
