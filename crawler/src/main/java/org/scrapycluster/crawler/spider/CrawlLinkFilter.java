package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.links.LinkExtractor;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * A built-in link filter that applies one of a crawl's own link rules ({@code allowed_domains},
 * {@code allow_regex}, {@code deny_regex}, {@code deny_extensions}), compiled once per distinct set of rules.
 */
public interface CrawlLinkFilter extends LinkFilter {

    /** Whether {@code link} passes this filter's rule of the crawl whose rules {@code crawlRules} hold. */
    boolean allows(PageLink link, LinkExtractor crawlRules);

    /** Whether it matches the crawl's regexes, whose time a page's links share ({@code LINK_REGEX_PAGE_SECONDS}). */
    default boolean matchesRegexes() {
        return false;
    }

    @Override
    default boolean allows(PageLink link, Page page) {
        return LinkRules.compiled(CrawlRequest.get(page.url(), page.meta())).map(rules -> allows(link, rules)).orElse(false);
    }
}
