package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;

/** {@code allow-regex}: a link in which one of the crawl's {@code allow_regex} finds a match (any link when none is given). */
public final class AllowRegexFilter implements CrawlLinkFilter {

    @Override
    public String name() {
        return "allow-regex";
    }

    @Override
    public boolean allows(PageLink link, LinkExtractor crawlRules) {
        return crawlRules.allowsByAllowRegex(link.url());
    }

    @Override
    public boolean matchesRegexes() {
        return true;
    }
}
