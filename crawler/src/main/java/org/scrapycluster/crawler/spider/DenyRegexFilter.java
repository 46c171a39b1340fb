package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;

/** {@code deny-regex}: no link in which one of the crawl's {@code deny_regex} finds a match. */
public final class DenyRegexFilter implements CrawlLinkFilter {

    @Override
    public String name() {
        return "deny-regex";
    }

    @Override
    public boolean allows(PageLink link, LinkExtractor crawlRules) {
        return crawlRules.allowsByDenyRegex(link.url());
    }

    @Override
    public boolean matchesRegexes() {
        return true;
    }
}
