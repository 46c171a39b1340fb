package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A crawl from seed to Kafka against the real stack and the test origin: the result message of docs/compatibility.md §1.3, the
 * pages a crawl of each depth reaches, the crawl's link filters, the dupefilter, {@code domain_max_pages}
 * and the hand-off of requests from one spider to another.
 */
@ExtendWith(SharedStack.class)
class CrawlEndToEndTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(7).domains(2).pagesPerDomain(12).linksPerPage(3)
            .crossDomainShare(0.3).pageBytes(600).build();
    private static final PageRef START = new PageRef(0, 0);
    private static TestOrigin origin;

    private final EmbeddedStack stack;
    private CrawlerTestBed bed;

    CrawlEndToEndTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeAll
    static void startOrigin() {
        origin = TestOrigin.builder().site(SITE).route(ExtensionPages.PATH, new ExtensionPages())
                .route(TypedPages.PATH, new TypedPages()).start();
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    @BeforeEach
    void startBed() {
        bed = new CrawlerTestBed(stack);
        origin.requests().clear();
    }

    @AfterEach
    void closeBed() {
        bed.close();
    }

    @Test
    void aSeedComesOutOnTheFirehoseWithEveryFieldOfTheResultMessage() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "fields");
        seed.put("attrs", Map.of("customer", "x"));
        bed.seed(seed);

        JsonNode result = bed.awaitResults(1).getFirst();
        List<String> keys = new ArrayList<>();
        result.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("appid", "attrs", "body", "crawlid", "encoding", "links", "request_headers", "response_headers",
                "response_url", "status_code", "status_msg", "timestamp", "url"), keys, "every field, keys sorted");
        assertEquals("testapp", result.get("appid").asText());
        assertEquals("fields", result.get("crawlid").asText());
        assertEquals("x", result.get("attrs").get("customer").asText());
        assertEquals(origin.pageUrl(START), result.get("url").asText());
        assertEquals(origin.pageUrl(START), result.get("response_url").asText());
        assertEquals(200, result.get("status_code").asInt());
        assertEquals("OK", result.get("status_msg").asText());
        assertEquals("utf-8", result.get("encoding").asText());
        assertEquals(new String(SITE.render(START, origin::baseUrl), StandardCharsets.UTF_8), result.get("body").asText());
        assertEquals(0, result.get("links").size(), "no links are followed at maxdepth 0");
        assertTrue(result.get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{6})?"),
                result.get("timestamp").asText());
        JsonNode sent = result.get("request_headers");
        assertEquals("Scrapy/1.5.0 (+https://scrapy.org)", sent.get("User-Agent").get(0).asText());
        assertEquals("en", sent.get("Accept-Language").get(0).asText());
        assertEquals("gzip,deflate", sent.get("Accept-Encoding").get(0).asText());
        assertTrue(sent.get("Accept").get(0).asText().startsWith("text/html"));
        assertTrue(result.get("response_headers").get("Content-Type").get(0).asText().startsWith("text/html"));
        // the heartbeat is written by a thread of its own, in no set order with the crawl
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertEquals(1, bed.redis().sync()
                .keys("stats:crawler:*:link:*").stream().filter(key -> key.matches("stats:crawler:.+:link:[0-9a-f]{12}")).count(),
                "the node's heartbeat"));
    }

    /** As Scrapy's response.url, which is the request URL through urldefrag. */
    @Test
    void aSeedsFragmentStaysInUrlAndIsLeftOutOfResponseUrl() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.pageUrl(START) + "#part", "fragment"));

        JsonNode result = bed.awaitResults(1).getFirst();
        assertEquals(origin.pageUrl(START) + "#part", result.get("url").asText());
        assertEquals(origin.pageUrl(START), result.get("response_url").asText());
        assertEquals(200, result.get("status_code").asInt());
    }

    @Test
    void theWanderingSpiderWalksOneRandomLinkAtATime() {
        bed.set("SPIDER_NAME", "wandering").startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "walk");
        seed.put("spiderid", "wandering");
        seed.put("allowed_domains", List.of(hostAndPort(0)));
        bed.seed(seed);

        // a step's page may reach Kafka before the page it came from: it is filed before that page's result is sent
        List<JsonNode> results = bed.awaitResults(2).stream()
                .sorted(Comparator.comparingInt(result -> result.get("attrs").get("step").asInt())).toList();
        for (int step = 0; step < results.size(); step++) {
            JsonNode result = results.get(step);
            assertEquals(step, result.get("attrs").get("step").asInt(), "one page per step");
            assertEquals(0, result.get("links").size(), "the wandering spider lists no links");
            if (step > 0) {
                String previous = results.get(step - 1).get("url").asText();
                PageRef from = SITE.pages().stream().filter(page -> origin.pageUrl(page).equals(previous)).findFirst().orElseThrow();
                assertTrue(SITE.links(from).stream().map(origin::pageUrl).toList().contains(result.get("url").asText()),
                        "each step follows a link of the page before");
            }
        }
    }

    @Test
    void maxdepthZeroFetchesTheSeedOnly() {
        assertCrawlReaches(0, Map.of(), page -> true);
    }

    @Test
    void maxdepthOneFetchesTheSeedAndItsLinksListingThemInTheSeedsResult() {
        List<JsonNode> results = assertCrawlReaches(1, Map.of(), page -> true);
        JsonNode seedResult = results.stream().filter(r -> r.get("url").asText().equals(origin.pageUrl(START))).findFirst().orElseThrow();
        List<String> listed = new ArrayList<>();
        seedResult.get("links").forEach(link -> listed.add(link.get("url").asText()));
        assertEquals(SITE.links(START).stream().map(origin::pageUrl).toList(), listed);
        results.stream().filter(r -> r != seedResult).forEach(r -> assertEquals(0, r.get("links").size()));
    }

    @Test
    void maxdepthTwoFetchesExactlyThePagesWithinTwoHops() {
        assertCrawlReaches(2, Map.of(), page -> true);
    }

    @Test
    void allowedDomainsKeepTheCrawlOnThoseHostsAndPorts() {
        assertCrawlReaches(2, Map.of("allowed_domains", List.of(hostAndPort(0))), page -> page.domain() == 0);
    }

    /** As Scrapy compares {@code host:port}: a domain without the port allows no link to a port. */
    @Test
    void anAllowedDomainWithoutThePortAllowsNoLinkOnAPort() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "no-port");
        seed.put("maxdepth", 1);
        seed.put("allowed_domains", List.of(origin.host(0), origin.host(1)));
        bed.seed(seed);

        List<JsonNode> results = bed.awaitResults(1);
        assertEquals(List.of(origin.pageUrl(START)), CrawlerTestBed.urls(results), "the seed alone");
        assertEquals(0, results.getFirst().get("links").size());
    }

    @Test
    void allowRegexFollowsOnlyMatchingLinks() {
        assertCrawlReaches(2, Map.of("allow_regex", List.of("/p/[0-5]$")), page -> page.page() <= 5);
    }

    @Test
    void denyRegexDropsMatchingLinks() {
        assertCrawlReaches(2, Map.of("deny_regex", List.of("/p/[6-9]$", "/p/1[0-9]$")), page -> page.page() <= 5);
    }

    @Test
    void denyExtensionsReplaceTheDefaultList() {
        bed.startNode();
        Map<String, Object> defaults = CrawlerTestBed.feedItem(origin.url(0, ExtensionPages.PATH), "ext-default");
        defaults.put("maxdepth", 1);
        bed.seed(defaults);
        Map<String, Object> custom = CrawlerTestBed.feedItem(origin.url(1, ExtensionPages.PATH), "ext-custom");
        custom.put("maxdepth", 1);
        custom.put("deny_extensions", List.of("html"));
        bed.seed(custom);

        List<JsonNode> results = bed.awaitResults(6);
        assertEquals(Set.of(origin.url(0, ExtensionPages.PATH), origin.url(0, "/ext/a.html"), origin.url(0, "/ext/c.txt")),
                urlsOf(results, "ext-default"), "the default list denies pdf");
        assertEquals(Set.of(origin.url(1, ExtensionPages.PATH), origin.url(1, "/ext/b.pdf"), origin.url(1, "/ext/c.txt")),
                urlsOf(results, "ext-custom"), "the crawl's list replaces the default");
    }

    /** As Scrapy sniffs a body whose type names no text: HTML uploaded to S3 without a type is still crawled. */
    @Test
    void htmlServedAsOctetStreamIsReadForLinks() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.url(0, TypedPages.OCTET_PAGE), "octet");
        seed.put("maxdepth", 1);
        bed.seed(seed);

        List<JsonNode> results = bed.awaitResults(2);
        assertEquals(Set.of(origin.url(0, TypedPages.OCTET_PAGE), origin.url(0, TypedPages.TARGET)),
                Set.copyOf(CrawlerTestBed.urls(results)));
        JsonNode upload = results.stream().filter(r -> r.get("url").asText().endsWith(TypedPages.OCTET_PAGE)).findFirst().orElseThrow();
        assertEquals(origin.url(0, TypedPages.TARGET), upload.get("links").get(0).get("url").asText());
    }

    /** lxml reads an XML page's CDATA as text: the links inside an RSS item's description are not followed. */
    @Test
    void linksInsideCdataOfAFeedAreNotFollowed() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.url(0, TypedPages.FEED), "feed");
        seed.put("maxdepth", 1);
        bed.seed(seed);

        List<JsonNode> results = bed.awaitResults(1);
        assertEquals(List.of(origin.url(0, TypedPages.FEED)), CrawlerTestBed.urls(results));
        assertEquals(0, results.getFirst().get("links").size());
    }

    /** The original's spiders failed on a response without text (its base Response has no encoding): nothing published. */
    @Test
    void aBinaryResponseIsCountedAndNotPublished() {
        bed.startNode();
        Map<String, Object> pdf = CrawlerTestBed.feedItem(origin.url(0, TypedPages.PDF), "pdf");
        pdf.put("maxdepth", 1);
        bed.seed(pdf);

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> bed.counted("crawler.binary.responses") == 1.0);
        assertEquals(1, origin.requests().forPath(TypedPages.PDF).size());
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, TypedPages.TARGET), "after-pdf"));
        assertEquals(List.of(origin.url(0, TypedPages.TARGET)), CrawlerTestBed.urls(bed.awaitResults(1)),
                "the page crawled after the PDF is the only result");
    }

    @Test
    void withPublishBinaryResponsesABinaryBodyGoesOutBase64Encoded() {
        bed.set("PUBLISH_BINARY_RESPONSES", true).startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, TypedPages.PDF), "pdf-published"));

        JsonNode result = bed.awaitResults(1).getFirst();
        assertEquals(Base64.getEncoder().encodeToString(TypedPages.PDF_BYTES), result.get("body").asText());
        assertTrue(result.get("body_base64").asBoolean());
        assertEquals(0, result.get("links").size());
        assertEquals(0.0, bed.counted("crawler.binary.responses"));
    }

    @Test
    void aSeedLinkedBackIsNotFetchedTwice() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.url(0, ExtensionPages.PATH), "linked-back");
        seed.put("maxdepth", 2);
        bed.seed(seed);

        bed.awaitResults(3);
        assertEquals(1, origin.requests().forPath(ExtensionPages.PATH).size(), "the seed's page links to itself");
    }

    @Test
    void domainMaxPagesFetchesExactlyThatManyPagesOfTheDomain() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "max-pages");
        seed.put("maxdepth", 3);
        seed.put("domain_max_pages", 4);
        seed.put("allowed_domains", List.of(hostAndPort(0)));
        bed.seed(seed);

        List<JsonNode> results = bed.awaitResults(4);
        assertEquals(4, results.size(), CrawlerTestBed.urls(results).toString());
        assertTrue(SITE.reachable(START, 3, page -> page.domain() == 0).size() > 4, "the site has more to offer");
    }

    @Test
    void aChildForAnotherSpiderGoesToThatSpidersQueues() {
        bed.set("SPIDER_NAME", HandOffSpider.NAME).startNode();
        bed.set("SPIDER_NAME", "link").startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "hand-off");
        seed.put("spiderid", HandOffSpider.NAME);
        seed.put("maxdepth", 1);
        bed.seed(seed);

        Set<String> expected = SITE.reachable(START, 1, page -> true).stream().map(origin::pageUrl).collect(Collectors.toSet());
        List<JsonNode> results = bed.awaitResults(expected.size());
        assertEquals(expected, Set.copyOf(CrawlerTestBed.urls(results)));
        assertEquals(expected.size(), results.size());
        assertEquals(0, bed.redis().sync().exists(HandOffSpider.NAME + ":" + origin.host(1) + ".:queue"));
    }

    /** Crawls from the start page with these crawl fields; checks the exact pages fetched, once each. */
    private List<JsonNode> assertCrawlReaches(int maxdepth, Map<String, Object> fields, Predicate<PageRef> follow) {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "depth-" + maxdepth);
        seed.put("maxdepth", maxdepth);
        seed.putAll(fields);
        bed.seed(seed);

        Set<String> expected = SITE.reachable(START, maxdepth, follow).stream().map(origin::pageUrl)
                .collect(Collectors.toCollection(TreeSet::new));
        List<JsonNode> results = bed.awaitResults(expected.size());
        assertEquals(expected, new TreeSet<>(CrawlerTestBed.urls(results)));
        assertEquals(expected.size(), results.size(), "each page once");
        assertEquals(expected.size(), origin.requests().matching(r -> r.path().startsWith(SyntheticSite.PAGE_PREFIX)).size(),
                "each page fetched once");
        return results;
    }

    /** {@code host:port} of domain {@code domain}: what {@code allowed_domains} names it by. */
    private static String hostAndPort(int domain) {
        return origin.host(domain) + ":" + origin.port();
    }

    private static Set<String> urlsOf(List<JsonNode> results, String crawlid) {
        return results.stream().filter(r -> r.get("crawlid").asText().equals(crawlid)).map(r -> r.get("url").asText())
                .collect(Collectors.toSet());
    }
}
