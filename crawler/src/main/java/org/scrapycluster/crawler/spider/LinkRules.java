package org.scrapycluster.crawler.spider;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.links.LinkExtractor;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.benmanes.caffeine.cache.Cache;

/**
 * The link extractor a crawl asks for, from its request's {@code allowed_domains}, {@code allow_regex},
 * {@code deny_regex} and {@code deny_extensions} (docs/compatibility.md §4.8), built once per distinct set of
 * filters and reused (compiling regexes per page would cost more than extracting). A crawl whose regex is
 * not RE2 gets no links, with an error in the log. The links that pass are then offered to the
 * {@link LinkFilter}s of {@code LINK_FILTERS}, in order. Thread-safe.
 */
public final class LinkRules {

    private static final Logger LOG = LoggerFactory.getLogger(LinkRules.class);
    /** The extractors of the filter sets seen, shared by every spider of the process: they are immutable. */
    private static final Cache<List<List<String>>, LinkExtractor> EXTRACTORS = ProcessCaches.named("link-extractor", 1000);

    private final List<LinkFilter> filters;

    /** Rules that apply {@code filters}, in order, after the crawl's own. */
    public LinkRules(List<LinkFilter> filters) {
        this.filters = List.copyOf(filters);
    }

    /** A request for {@code url} found on the page of {@code page}, with {@code meta} and the crawl's User-Agent. */
    public static CrawlRequest follow(CrawlRequest page, String url, Map<String, Object> meta) {
        CrawlRequest child = CrawlRequest.get(url, meta);
        return page.text("useragent").map(agent -> child.withHeader("User-Agent", agent)).orElse(child);
    }

    /** The links of {@code page} that its crawl's filters and every {@link LinkFilter} allow. */
    public List<PageLink> links(SpiderResponse page) {
        return extract(page.request(), page.text(), page.url()).stream().map(link -> new PageLink(link.url(), link.text()))
                .filter(link -> allowed(link, page)).toList();
    }

    private boolean allowed(PageLink link, Page page) {
        for (LinkFilter filter : filters) {
            if (!filter.allows(link, page)) {
                return false;
            }
        }
        return true;
    }

    /** The links of a page for {@code request}'s filters, with newlines stripped from their URLs. */
    List<Link> extract(CrawlRequest request, String html, String pageUrl) {
        List<List<String>> filters = Arrays.asList(request.textList("allowed_domains"), request.textList("allow_regex"),
                request.textList("deny_regex"), request.textList("deny_extensions"));
        LinkExtractor extractor;
        try {
            extractor = EXTRACTORS.get(filters, LinkRules::extractorFor);
        } catch (IllegalArgumentException e) {
            LOG.atError().addKeyValue("crawlid", request.crawlid()).addKeyValue("error", e.getMessage())
                    .log("The crawl's link filters cannot be used; no links followed");
            return List.of();
        }
        return extractor.extract(html, pageUrl).stream()
                .map(link -> new Link(link.url().replace("\n", "").replace("\r", ""), link.text())).toList();
    }

    private static LinkExtractor extractorFor(List<List<String>> filters) {
        return LinkExtractor.builder().allowDomains(filters.get(0)).allow(filters.get(1)).deny(filters.get(2))
                .denyExtensions(filters.get(3)).build();
    }
}
