package org.scrapycluster.crawler.spider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.links.ResponseKind;
import org.scrapycluster.crawler.request.CrawlRequest;

import com.github.benmanes.caffeine.cache.Cache;

/** The crawl's own link rules as the built-in filters of {@code LINK_FILTERS}: each one applies until it is removed. */
class LinkRulesTest {

    private static final String PAGE = "<a href='/a.html'>a</a> <a href='/report.pdf'>pdf</a> <a href='/private/b.html'>b</a>"
            + " <a href='http://other.test/c.html'>c</a>";
    private static final CrawlRequest CRAWL = CrawlRequest.get("http://a.test/", Map.of("allowed_domains", List.of("a.test"),
            "deny_regex", List.of("/private/")));

    @Test
    void aFollowRequestCarriesTheNullsOfItsCrawlFields() {
        Map<String, Object> meta = new HashMap<>();
        meta.put("attrs", null); // as a spider copies the page's attrs where the crawl has none
        FollowRequest next = new FollowRequest("http://a.test/next", meta);

        CrawlRequest child = LinkRules.follow(CrawlRequest.get("http://a.test/", Map.of()), next.url(), next.meta());

        assertTrue(child.meta().containsKey("attrs"));
        assertNull(child.meta().get("attrs"));
    }

    /**
     * The compiled rules of crawls whose regexes are at the limit a request may carry are kept by their size: a few
     * such crawls fill the cache's 1,000 entries, where a thousand of them held about 17 GB once used.
     */
    @Test
    void compiledRulesAreKeptByTheSizeOfTheirRegexes() {
        assertEquals(1, LinkRules.weight(LinkRules.compiled(CRAWL).orElseThrow().regexInstructions()));
        assertEquals(201, LinkRules.weight(200_000));
        for (int crawl = 0; crawl < 10; crawl++) {
            assertTrue(LinkRules.compiled(CrawlRequest.get("http://a.test/", Map.of("allow_regex", List.of("(a{999}){99}" + crawl),
                    "deny_regex", List.of("(b{999}){99}" + crawl)))).isPresent());
        }
        Cache<Object, Object> compiled = ProcessCaches.named("link-extractor", 0);
        compiled.cleanUp();
        long weight = compiled.policy().eviction().orElseThrow().weightedSize().orElseThrow();
        long large = compiled.asMap().keySet().stream().filter(rules -> rules.toString().contains("(a{999}){99}")).count();
        assertTrue(weight <= 1000 && large <= 5, weight + " in all, " + large + " of those crawls kept");
    }

    @Test
    void theDefaultFiltersApplyEveryRuleOfTheCrawl() {
        assertEquals(List.of("http://a.test/a.html"), links(Map.of()));
    }

    @Test
    void removingABuiltInFilterLetsThroughWhatItRefused() {
        assertEquals(List.of("http://a.test/a.html", "http://a.test/report.pdf"), links(Map.of("LINK_FILTERS", "{deny-extensions: null}")));
        assertEquals(List.of("http://a.test/a.html", "http://a.test/private/b.html"), links(Map.of("LINK_FILTERS", "{deny-regex: null}")));
        assertEquals(List.of("http://a.test/a.html", "http://other.test/c.html"), links(Map.of("LINK_FILTERS", "{allowed-domains: null}")));
    }

    @Test
    void reorderingTheBuiltInsKeepsWhatPasses() {
        assertEquals(List.of("http://a.test/a.html"),
                links(Map.of("LINK_FILTERS", "{allow-regex: 40, deny-regex: 30, allowed-domains: 20, deny-extensions: 10}")));
    }

    /**
     * A crawl's regexes of many instructions over a page of long links take tens of milliseconds a link (a crawl of 90
     * such regexes held a worker for minutes a page): once they have spent their time on the page, its other links are
     * not matched, nor followed, and counted.
     */
    @Test
    void theLinksLeftOnceTheRegexesSpentThePagesTimeAreCutAndCounted() {
        CrawlRequest crawl = CrawlRequest.get("http://a.test/", Map.of("allow_regex", List.of("[^Q]{0,1000}Q1")));
        List<String> urls = IntStream.range(0, 500).mapToObj(i -> "http://a.test/l" + i + "/" + "b".repeat(2000) + "Q1").toList();
        String page = urls.stream().map(url -> "<a href='" + url + "'>x</a>").collect(Collectors.joining());
        AtomicInteger cut = new AtomicInteger();
        LinkRules rules = new LinkRules(List.of(new AllowRegexFilter()), Duration.ofSeconds(1), cut::addAndGet);

        List<String> links = rules.extract(crawl, page, crawl.url(), ResponseKind.HTML).stream().map(Link::url).toList();

        // each matches, in about 24 ms: those matched within the second are followed, in order, the others counted
        assertTrue(cut.get() > 0 && !links.isEmpty(), links.size() + " followed, " + cut + " cut");
        assertEquals(urls.subList(0, links.size()), links);
        assertEquals(urls.size(), links.size() + cut.get());
    }

    /** A link whose match could take longer than the page has left is not matched, alone: a megabyte's would take most of an hour. */
    @Test
    void aLinkTooLongToMatchInTheTimeLeftIsCutUnmatched() {
        CrawlRequest crawl = CrawlRequest.get("http://a.test/", Map.of("deny_regex", List.of("[^Q]{0,1000}Q1")));
        String page = "<a href='/short'>a</a><a href='/" + "b".repeat(1 << 20) + "'>b</a><a href='/after'>c</a>";
        AtomicInteger cut = new AtomicInteger();
        LinkRules rules = new LinkRules(List.of(new DenyRegexFilter()), Duration.ofSeconds(2), cut::addAndGet);

        List<Link> links = rules.extract(crawl, page, crawl.url(), ResponseKind.HTML);

        assertEquals(List.of("http://a.test/short", "http://a.test/after"), links.stream().map(Link::url).toList());
        assertEquals(1, cut.get());
    }

    /**
     * The crawl's other rules go first, whatever the order of LINK_FILTERS: a link they keep out spends none of the
     * regexes' time, and is not counted as cut.
     */
    @Test
    void aLinkTheOtherRulesKeepOutSpendsNoRegexTime() {
        CrawlRequest crawl = CrawlRequest.get("http://a.test/", Map.of("allowed_domains", List.of("a.test"),
                "deny_regex", List.of("[^Q]{0,1000}Q1")));
        String page = "<a href='http://other.test/" + "b".repeat(1 << 20) + "'>far</a><a href='/near'>near</a>";
        AtomicInteger cut = new AtomicInteger();
        LinkRules rules = new LinkRules(List.of(new DenyRegexFilter(), new AllowedDomainsFilter()), Duration.ofSeconds(2),
                cut::addAndGet);

        List<Link> links = rules.extract(crawl, page, crawl.url(), ResponseKind.HTML);

        assertEquals(List.of("http://a.test/near"), links.stream().map(Link::url).toList());
        assertEquals(0, cut.get());
    }

    /** The time is the regexes': a crawl whose regex filters are taken out cuts nothing, however long its links. */
    @Test
    void withoutTheRegexFiltersNoLinkIsCut() {
        CrawlRequest crawl = CrawlRequest.get("http://a.test/", Map.of("deny_regex", List.of("[^Q]{0,1000}Q1")));
        AtomicInteger cut = new AtomicInteger();
        LinkRules rules = new LinkRules(List.of(new AllowedDomainsFilter()), Duration.ofSeconds(2), cut::addAndGet);

        List<Link> links = rules.extract(crawl, "<a href='/" + "b".repeat(1 << 20) + "'>b</a>", crawl.url(), ResponseKind.HTML);

        assertEquals(1, links.size());
        assertEquals(0, cut.get());
    }

    private static List<String> links(Map<String, String> set) {
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), set));
        LinkRules rules = new LinkRules(ExtensionLoader.of(LinkFilter.class, "link filters", settings).ordered("LINK_FILTERS"),
                Duration.ofSeconds(2), cut -> { });
        return rules.extract(CRAWL, PAGE, CRAWL.url(), ResponseKind.HTML).stream().map(Link::url).toList();
    }
}
