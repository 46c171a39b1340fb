package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.io.IOException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.crawler.fetch.EncodingDetector;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.EchoHeaders;
import org.scrapycluster.embedded.origin.FlakyThenOk;
import org.scrapycluster.embedded.origin.GzipRoute;
import org.scrapycluster.embedded.origin.NonUtf8Page;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.RedirectRoute;
import org.scrapycluster.embedded.origin.RobotsTxt;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.embedded.origin.TooManyRequests;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What happens between fetching and the spider, against the test origin: retries through Redis,
 * redirects and their limit, back-off on 429 / Retry-After, robots.txt, network failures of discovered
 * links, the crawl's cookies and User-Agent, legacy encodings, pages too large for Kafka, and gzip.
 */
@ExtendWith(SharedStack.class)
class DownloadBehaviourTest {

    private static final int ROBOTS_DOMAIN = 3;
    private static final int DELAY_DOMAIN = 4;
    private static final int SLOW_DELAY_DOMAIN = 5;
    private static TestOrigin origin;
    private static int deadPort;

    private final EmbeddedStack stack;
    private CrawlerTestBed bed;

    DownloadBehaviourTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeAll
    static void startOrigin() {
        deadPort = FreePorts.pick();
        origin = TestOrigin.builder().domains(6)
                .robots(ROBOTS_DOMAIN, RobotsTxt.disallow("/status"))
                .robots(DELAY_DOMAIN, RobotsTxt.allowAll().withCrawlDelay(1))
                .robots(SLOW_DELAY_DOMAIN, RobotsTxt.allowAll().withCrawlDelay(2))
                .route("/dead-link", exchange -> exchange.sendText(200, "text/html; charset=utf-8",
                        "<html><body><a href=\"http://127.0.0.1:" + deadPort + "/gone\">gone</a></body></html>"))
                .start();
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    @BeforeEach
    void startBed() {
        bed = new CrawlerTestBed(stack).set("RETRY_TIMES", 2);
        origin.requests().clear();
    }

    @AfterEach
    void closeBed() {
        bed.close();
    }

    @Test
    void aRetryStatusIsRetriedThroughRedisUntilItSucceeds() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, FlakyThenOk.path(2, "retry")), "retry"));

        JsonNode result = bed.awaitResults(1).getFirst();
        assertEquals(200, result.get("status_code").asInt());
        assertEquals(FlakyThenOk.OK_BODY, result.get("body").asText());
        assertEquals(3, origin.requests().forPath(FlakyThenOk.PATH).size());
    }

    @Test
    void aRetryStatusIsPublishedOnceTheRetriesAreUsedUp() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, StatusRoute.path(500)), "give-up"));

        List<JsonNode> results = bed.awaitResults(1);
        assertEquals(1, results.size());
        assertEquals(500, results.getFirst().get("status_code").asInt());
        assertEquals(3, origin.requests().forPath(StatusRoute.PATH).size(), "the first attempt and RETRY_TIMES retries");
        assertEquals(3.0, bed.counted("crawler.responses", "status", "500"), "every answer is counted, the retried ones too");
    }

    @Test
    void aRedirectBecomesANewRequestAndItsTargetIsPublished() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, RedirectRoute.chain(3)), "redirect"));

        List<JsonNode> results = bed.awaitResults(1);
        assertEquals(1, results.size());
        assertEquals(origin.url(0, RedirectRoute.chain(0)), results.getFirst().get("url").asText());
        assertEquals(200, results.getFirst().get("status_code").asInt());
    }

    @Test
    void redirectsStopAtTheLimitAndALoopEnds() {
        bed.set("REDIRECT_MAX_TIMES", 2).startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, RedirectRoute.chain(5)), "too-many"));
        bed.seed(CrawlerTestBed.feedItem(origin.url(1, RedirectRoute.LOOP_PATH), "loop"));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> redirects(0).size() >= 3 && redirects(1).size() >= 2);
        assertEquals(List.of(), bed.awaitResults(0), "nothing is published");
        assertEquals(List.of(RedirectRoute.chain(5), RedirectRoute.chain(4), RedirectRoute.chain(3)),
                redirects(0), "two redirects followed, no more");
        assertEquals(List.of(RedirectRoute.LOOP_PATH, RedirectRoute.PATH + "/loop/b"), redirects(1), "the loop ends in the dupefilter");
    }

    private static List<String> redirects(int domain) {
        return origin.requests().forDomain(domain).stream().map(RecordedRequest::path).filter(path -> path.startsWith(RedirectRoute.PATH))
                .toList();
    }

    @Test
    void tooManyRequestsPausesTheDomainForRetryAfterAndRetries() {
        assertRetriedAfterRetryAfter(bed, 0, "back-off");
    }

    /** A node whose pause Redis refuses keeps the server's back-off itself: its retry is not sent again at once. */
    @Test
    void tooManyRequestsIsWaitedForByTheNodeWhenRedisRefusesThePause() throws IOException {
        try (PauseRefusingRedis refusing = new PauseRefusingRedis(stack.redisPort());
                CrawlerTestBed refusedBed = new CrawlerTestBed(stack, refusing.port(), stack.kafkaBootstrap()).set("RETRY_TIMES", 2)) {
            assertRetriedAfterRetryAfter(refusedBed, 1, "back-off-refused");
            assertEquals(1, refusing.refused(), "the domain's pause was asked of Redis, and refused");
        }
    }

    /**
     * A page of {@code domain} answered 429 with {@code Retry-After: 1} once (the origin counts per URL, so each test
     * takes a domain of its own) is fetched again, no sooner than 1 s later (a retry that did not wait would
     * come within milliseconds), and published.
     */
    private static void assertRetriedAfterRetryAfter(CrawlerTestBed node, int domain, String crawlid) {
        node.startNode();
        node.seed(CrawlerTestBed.feedItem(origin.url(domain, TooManyRequests.path(1, 1)), crawlid));

        JsonNode result = node.awaitResults(1).getFirst();
        assertEquals(200, result.get("status_code").asInt());
        List<RecordedRequest> attempts = origin.requests().forPath(TooManyRequests.PATH);
        assertEquals(2, attempts.size());
        long gapMillis = Duration.ofNanos(attempts.get(1).nanoTime() - attempts.get(0).nanoTime()).toMillis();
        assertTrue(gapMillis >= 900, "the retry waited for Retry-After: " + gapMillis + " ms");
    }

    @Test
    void robotsTxtDisallowedRequestsAreDroppedAndCounted() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(ROBOTS_DOMAIN, StatusRoute.path(200)), "robots-no"));
        bed.seed(CrawlerTestBed.feedItem(origin.url(ROBOTS_DOMAIN, EchoHeaders.PATH), "robots-yes"));

        List<JsonNode> results = bed.awaitResults(1);
        assertEquals(List.of(origin.url(ROBOTS_DOMAIN, EchoHeaders.PATH)), CrawlerTestBed.urls(results));
        assertEquals(0, origin.requests().forPath(StatusRoute.PATH).size());
        assertEquals(1, origin.requests().forPath(RobotsTxt.PATH).size(), "robots.txt is fetched once per host");
    }

    @Test
    void robotsCrawlDelaySpacesTheDomainsFetches() {
        bed.startNode();
        for (int i = 0; i < 3; i++) {
            bed.seed(CrawlerTestBed.feedItem(origin.url(DELAY_DOMAIN, StatusRoute.path(200) + "&n=" + i), "delay"));
        }
        bed.awaitResults(3);
        assertFetchedApart(3, Duration.ofMillis(900), "Crawl-delay 1 s");
    }

    /**
     * Each node reads a new domain's robots.txt before its first request of it, but the throttle spaced that request by
     * what the node knew before: three nodes under a fast throttle sent their first requests together (5 ms apart), the
     * Crawl-delay only spacing the rest. A node's first request whose hand-out came too soon after the domain's previous
     * one is put back and handed out again at the delay.
     */
    @Test
    void robotsCrawlDelaySpacesTheFirstFetchesOfEveryNode() {
        bed.startNode();
        bed.startNode();
        bed.startNode();
        for (int i = 0; i < 3; i++) {
            bed.seed(CrawlerTestBed.feedItem(origin.url(SLOW_DELAY_DOMAIN, StatusRoute.path(200) + "&first=" + i), "delay-nodes"));
        }
        bed.awaitResults(3);
        assertFetchedApart(3, Duration.ofMillis(1900), "Crawl-delay 2 s");
        assertEquals(3, origin.requests().forPath(RobotsTxt.PATH).size(), "each node reads the file once");
    }

    /** The origin was asked for {@code pages} status pages, each at least {@code gap} after the one before. */
    private static void assertFetchedApart(int pages, Duration gap, String why) {
        List<RecordedRequest> fetched = origin.requests().forPath(StatusRoute.PATH);
        assertEquals(pages, fetched.size());
        for (int i = 1; i < fetched.size(); i++) {
            Duration apart = Duration.ofNanos(fetched.get(i).nanoTime() - fetched.get(i - 1).nanoTime());
            assertTrue(apart.compareTo(gap) >= 0, why + ", but " + apart.toMillis() + " ms between fetches " + (i - 1) + " and " + i);
        }
    }

    @Test
    void aNetworkFailureOfADiscoveredLinkIsRetriedLoggedAndCounted() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.url(0, "/dead-link"), "dead");
        seed.put("maxdepth", 1);
        bed.seed(seed);

        bed.awaitResults(1);
        String lifetime = "stats:crawler:" + NodeIdentity.create().hostname() + ":link:504:lifetime";
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> bed.redis().sync().pfcount(lifetime) == 3);
        assertEquals(2.0, bed.counted("crawler.retries"), "two retries");
        // the last failed download is recorded (and may be flushed to Redis) before the node counts giving up
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertEquals(4.0, bed.counted("crawler.errors"), "three failed attempts, then the node gave up"));
    }

    @Test
    void theCrawlsCookiesAndUserAgentReachTheOrigin() {
        bed.startNode();
        Map<String, Object> seed = CrawlerTestBed.feedItem(origin.url(0, EchoHeaders.PATH), "headers");
        seed.put("useragent", "TestAgent/1.0");
        seed.put("cookie", "session=abc; theme=dark");
        bed.seed(seed);

        JsonNode result = bed.awaitResults(1).getFirst();
        RecordedRequest sent = origin.requests().forPath(EchoHeaders.PATH).getFirst();
        assertEquals("TestAgent/1.0", sent.header("User-Agent"));
        assertEquals("session=abc; theme=dark", sent.header("Cookie"));
        assertEquals("TestAgent/1.0", result.get("request_headers").get("User-Agent").get(0).asText());
    }

    @Test
    void aLegacyEncodingIsNamedAndTheBodyDecodedOrSentAsTheOriginalBytes() {
        String path = NonUtf8Page.path("iso-8859-7", "header");
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, path), "greek"));
        JsonNode text = bed.awaitResults(1).getFirst();
        bed.close();

        bed = new CrawlerTestBed(stack).set("KAFKA_BASE_64_ENCODE", true);
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(1, path), "greek-base64"));
        JsonNode base64 = bed.awaitResults(1).getFirst();

        String encoding = EncodingDetector.fromContentType("text/html; charset=iso-8859-7").orElseThrow().name();
        assertEquals(encoding, text.get("encoding").asText());
        assertTrue(text.get("body").asText().contains(NonUtf8Page.GREEK), text.get("body").asText());
        byte[] raw = Base64.getDecoder().decode(base64.get("body").asText());
        assertEquals(encoding, base64.get("encoding").asText());
        assertTrue(new String(raw, Charset.forName("ISO-8859-7")).contains(NonUtf8Page.GREEK));
    }

    @Test
    void aGzippedPageIsPublishedDecompressed() {
        bed.startNode();
        bed.seed(CrawlerTestBed.feedItem(origin.url(0, GzipRoute.PATH), "gzip"));

        JsonNode result = bed.awaitResults(1).getFirst();
        assertEquals(GzipRoute.HTML, result.get("body").asText());
        assertTrue(result.get("response_headers").get("Content-Encoding") == null, "the decoded encoding is removed");
    }
}
