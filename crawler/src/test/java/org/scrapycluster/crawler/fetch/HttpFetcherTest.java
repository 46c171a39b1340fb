package org.scrapycluster.crawler.fetch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.origin.BrokenResponse;
import org.scrapycluster.embedded.origin.CompressionBomb;
import org.scrapycluster.embedded.origin.DeflateRoute;
import org.scrapycluster.embedded.origin.EchoHeaders;
import org.scrapycluster.embedded.origin.FlakyThenOk;
import org.scrapycluster.embedded.origin.GzipRoute;
import org.scrapycluster.embedded.origin.HugePage;
import org.scrapycluster.embedded.origin.NonUtf8Page;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.RedirectRoute;
import org.scrapycluster.embedded.origin.SetCookieRoute;
import org.scrapycluster.embedded.origin.SlowBody;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * The fetcher against a real HTTP server on loopback addresses: Scrapy's request shapes, Python codec names,
 * size limits, decompression, redirects, proxies, TLS, the address policy, and its connection pools and limits.
 */
class HttpFetcherTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(3).domains(3).pagesPerDomain(10)
            .pageBytes(3000).linksPerPage(5).build();
    private static final Set<Long> ANSWERED_CONNECTIONS = ConcurrentHashMap.newKeySet();

    private static TestOrigin origin;
    private static HttpFetcher fetcher;

    @BeforeAll
    static void open() {
        origin = TestOrigin.builder().site(SITE)
                .route("/utf8-location", exchange -> exchange.sendText(302, "text/plain", "moved", "Location",
                        new String("/p/café".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)))
                .route("/closing", exchange -> exchange.sendText(200, "text/plain", "bye", "Connection", "close"))
                .route("/second-request-dropped", exchange -> {
                    if (ANSWERED_CONNECTIONS.add(exchange.request().connectionId())) {
                        exchange.sendText(200, "text/plain", "first on this connection");
                    } else {
                        exchange.close();
                    }
                })
                .start();
        fetcher = new HttpFetcher(FetcherConfig.builder().readTimeout(Duration.ofSeconds(5))
                .totalTimeout(Duration.ofSeconds(20)).build());
    }

    @AfterAll
    static void close() {
        fetcher.close();
        origin.close();
    }

    private static HttpFetcher open(FetcherConfig config) {
        return new HttpFetcher(config);
    }

    private static FetchResult fetch(Fetcher with, FetchRequest request) {
        return with.fetch(request).orTimeout(60, TimeUnit.SECONDS).join();
    }

    private static FetchResult fetch(String url) {
        return fetch(fetcher, FetchRequest.get(url));
    }

    @Test
    void fetchesAPageWithTheDefaultHeaders() {
        PageRef page = new PageRef(1, 4);
        FetchResult result = fetch(origin.pageUrl(page));
        assertTrue(result.ok(), result.toString());
        assertEquals(200, result.status());
        assertEquals("OK", result.reason());
        assertArrayEquals(SITE.render(page, origin::baseUrl), result.body());
        assertEquals("utf-8", result.encoding().name());
        assertEquals(origin.pageUrl(page), result.url());
        assertNull(result.location());
        assertEquals(List.of("text/html; charset=utf-8"), result.headers().all("content-type"));
        RecordedRequest seen = origin.requests().matching(r -> r.uri().equals(page.path()) && r.domainIndex() == 1).getLast();
        assertEquals("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", seen.header("Accept"));
        assertEquals("en", seen.header("Accept-Language"));
        assertEquals("gzip,deflate", seen.header("Accept-Encoding"));
        assertEquals(FetcherConfig.SCRAPY_USER_AGENT, seen.header("User-Agent"));
        assertEquals(origin.host(1) + ":" + origin.port(), seen.header("Host"));
        assertEquals(HeaderMap.of("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "Accept-Language", "en", "User-Agent", FetcherConfig.SCRAPY_USER_AGENT, "Accept-Encoding", "gzip,deflate"),
                result.requestHeaders());
    }

    @Test
    void sendsTheRequestsUserAgentCookieAndOtherHeaders() {
        FetchResult result = fetch(fetcher, FetchRequest.get(origin.url(0, EchoHeaders.PATH)).withUserAgent("crawl-bot/2")
                .withCookie("session=abc; theme=dark").withHeader("Referer", "http://example.com/"));
        String echo = result.text();
        assertTrue(echo.contains("\"User-Agent\":[\"crawl-bot/2\"]"), echo);
        assertTrue(echo.contains("\"Cookie\":[\"session=abc; theme=dark\"]"), echo);
        assertTrue(echo.contains("\"Referer\":[\"http://example.com/\"]"), echo);
        assertEquals("crawl-bot/2", result.requestHeaders().first("User-Agent"));
        assertEquals(List.of("crawl-bot/2"), result.requestHeaders().toScrapyMap().get("User-Agent"));
        assertEquals("session=abc; theme=dark", result.requestHeaders().first("Cookie"));
    }

    @Test
    void sendsANonAsciiHeaderValueAsItsUtf8BytesAsScrapyDoes() {
        FetchResult result = fetch(fetcher, FetchRequest.get(origin.url(0, EchoHeaders.PATH)).withUserAgent("bot-ü-爬"));

        String octets = new String("bot-ü-爬".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        assertTrue(result.text().contains("\"User-Agent\":[\"" + octets + "\"]"), "the origin reads bytes one to one: " + result.text());
        assertEquals("bot-ü-爬", result.requestHeaders().first("User-Agent"), "reported as the crawl gave it");
    }

    @Test
    void sendsHeaderValuesAsScrapyDoesWhereNettyWouldRefuseThem() throws Exception {
        try (ScriptedServer server = new ScriptedServer(origin.host(0), exchange -> {
            while (exchange.readHead() != null) {
                exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            }
        })) {
            FetchResult result = fetch(fetcher, FetchRequest.get(server.url("/")).withUserAgent(" bot/1 (leading space)")
                    .withCookie("a=1;\u0001b=\u007f"));
            assertTrue(result.ok(), result.toString());
            List<String> head = server.heads().getFirst();
            assertTrue(head.contains("User-Agent:  bot/1 (leading space)"), head.toString());
            assertTrue(head.contains("Cookie: a=1;\u0001b=\u007f"), head.toString());
        }
    }

    @Test
    void aRequestsOwnHostHeaderIsSentInsteadOfTheUrlsAsTwistedDoes() throws Exception {
        try (ScriptedServer server = new ScriptedServer(origin.host(0), exchange -> {
            while (exchange.readHead() != null) {
                exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            }
        })) {
            assertTrue(fetch(fetcher, FetchRequest.get(server.url("/virtual")).withHeader("Host", "example.org")).ok());
            assertTrue(fetch(server.url("/plain")).ok());
            List<List<String>> hostLines = server.heads().stream()
                    .map(head -> head.stream().filter(line -> line.regionMatches(true, 0, "Host:", 0, 5)).toList())
                    .toList();
            String address = server.url("").substring("http://".length());
            assertEquals(List.of(List.of("Host: example.org"), List.of("host: " + address)), hostLines);
        }
    }

    @Test
    void keepsConnectionsAlivePerHost() {
        String url = origin.url(2, StatusRoute.path(200) + "&probe=keepalive");
        FetchResult first = fetch(url);
        FetchResult second = fetch(url);
        assertTrue(second.timings().reusedConnection(), "second fetch reuses the connection");
        assertEquals(Duration.ZERO, second.timings().connect());
        List<RecordedRequest> seen = origin.requests().matching(r -> r.uri().endsWith("probe=keepalive"));
        assertEquals(2, seen.size());
        assertEquals(seen.get(0).connectionId(), seen.get(1).connectionId());
        assertTrue(first.ok() && second.ok());
    }

    @Test
    void perHostLimitQueuesTheRest() {
        try (HttpFetcher limited = open(FetcherConfig.builder().maxConnectionsPerHost(2).build())) {
            List<CompletableFuture<FetchResult>> futures = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                futures.add(limited.fetch(FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 200) + "&n=" + i + "&probe=perhost"))));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> limited.stats().active() == 2 && limited.stats().queued() == 10);
            futures.forEach(f -> assertTrue(f.orTimeout(60, TimeUnit.SECONDS).join().ok()));
            Set<Long> connections = origin.requests().matching(r -> r.uri().contains("probe=perhost")).stream()
                    .map(RecordedRequest::connectionId).collect(Collectors.toSet());
            assertTrue(connections.size() <= 2, "at most two connections to the host, saw " + connections.size());
            assertEquals(new FetcherStats(0, 0, 2, 1), limited.stats());
        }
    }

    /** Thousands of calls waiting for one slot, each refused at once when it starts, all end: none starts down another's stack. */
    @Test
    void manyWaitingCallsThatEndAtOnceWhenStartedAllEnd() {
        AddressPolicy allowingDomainZero = AddressPolicy.publicOnly(List.of(NetworkRange.parse(origin.host(0))));
        try (HttpFetcher limited = open(FetcherConfig.builder().maxConnections(1).addressPolicy(allowingDomainZero).build())) {
            CompletableFuture<FetchResult> slow = limited.fetch(FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 300))));
            List<CompletableFuture<FetchResult>> refused = IntStream.range(0, 5_000)
                    .mapToObj(i -> limited.fetch(FetchRequest.get("http://10.0.0." + (i % 250 + 1) + "/p" + i))).toList();

            assertTrue(slow.orTimeout(60, TimeUnit.SECONDS).join().ok());
            refused.forEach(f -> assertEquals(FetchError.FORBIDDEN_ADDRESS, f.orTimeout(60, TimeUnit.SECONDS).join().error()));
            await().atMost(Duration.ofSeconds(30)).until(() -> limited.stats().active() == 0 && limited.stats().queued() == 0);
        }
    }

    @Test
    void theHostsOfCallsCancelledWhileTheyWaitedAreForgotten() {
        try (HttpFetcher limited = open(FetcherConfig.builder().maxConnections(1).build())) {
            CompletableFuture<FetchResult> slow = limited.fetch(FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 300))));
            IntStream.range(0, 100).forEach(i -> limited.fetch(FetchRequest.get("http://waiting" + i + ".test/")).cancel(true));

            assertTrue(slow.orTimeout(60, TimeUnit.SECONDS).join().ok());
            await().atMost(Duration.ofSeconds(30)).until(() -> limited.stats().equals(new FetcherStats(0, 0, 1, 1)));
        }
    }

    @Test
    void totalLimitIsSharedFairlyAcrossHosts() {
        try (HttpFetcher limited = open(FetcherConfig.builder().maxConnections(3).maxConnectionsPerHost(2).build())) {
            List<CompletableFuture<FetchResult>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                for (int d = 0; d < 3; d++) {
                    futures.add(limited.fetch(FetchRequest.get(origin.url(d, SlowBody.path(10, 10, 0, 150) + "&n=" + i + "&probe=total"))));
                }
            }
            int peak = 0;
            while (!futures.stream().allMatch(CompletableFuture::isDone)) {
                peak = Math.max(peak, limited.stats().active());
                Thread.onSpinWait();
            }
            assertTrue(peak <= 3, "never more than three fetches at once, saw " + peak);
            futures.forEach(f -> assertTrue(f.join().ok()));
            for (int d = 0; d < 3; d++) {
                int domain = d;
                assertEquals(4, origin.requests().matching(r -> r.uri().contains("probe=total") && r.domainIndex() == domain).size());
            }
        }
    }

    @Test
    void readTimeoutBeforeTheFirstByte() {
        try (HttpFetcher impatient = open(FetcherConfig.builder().readTimeout(Duration.ofMillis(300)).build())) {
            FetchResult result = fetch(impatient, FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 5000))));
            assertEquals(FetchError.READ_TIMEOUT, result.error(), result.toString());
            assertEquals(0, result.status());
        }
    }

    /**
     * With both timeouts as long, as DOWNLOAD_TIMEOUT sets them, a server that takes the connection and says nothing is a
     * read timeout whichever timer fires first: the total one, started before the connection, usually did, and the
     * server was counted as slow to answer rather than silent.
     */
    @Test
    void aServerThatSaysNothingIsAReadTimeoutThoughTheTotalTimerFiresFirst() {
        Duration timeout = Duration.ofMillis(300);
        try (HttpFetcher impatient = open(FetcherConfig.builder().readTimeout(timeout).totalTimeout(timeout).build())) {
            for (int i = 0; i < 3; i++) {
                FetchResult result = fetch(impatient, FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 5000) + "&try=" + i)));
                assertEquals(FetchError.READ_TIMEOUT, result.error(), result.toString());
            }
        }
    }

    @Test
    void readTimeoutInTheMiddleOfTheBodyKeepsTheHead() {
        try (HttpFetcher impatient = open(FetcherConfig.builder().readTimeout(Duration.ofMillis(300)).build())) {
            FetchResult result = fetch(impatient, FetchRequest.get(origin.url(0, SlowBody.path(100, 50, 5000, 0))));
            assertEquals(FetchError.READ_TIMEOUT, result.error(), result.toString());
            assertEquals(200, result.status());
            assertEquals(50, result.body().length);
        }
    }

    @Test
    void totalTimeoutEvenWhileDataKeepsComing() {
        try (HttpFetcher impatient = open(FetcherConfig.builder().readTimeout(Duration.ofSeconds(5))
                .totalTimeout(Duration.ofMillis(500)).build())) {
            FetchResult result = fetch(impatient, FetchRequest.get(origin.url(0, SlowBody.path(100, 1, 50, 0))));
            assertEquals(FetchError.TOTAL_TIMEOUT, result.error(), result.toString());
            assertTrue(result.timings().total().toMillis() >= 500);
            await().atMost(Duration.ofSeconds(10)).until(() -> impatient.stats().active() == 0);
        }
    }

    @Test
    void refusedConnection() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(origin.host(0)), 0));
            closedPort = socket.getLocalPort();
        }
        FetchResult result = fetch("http://" + origin.host(0) + ":" + closedPort + "/");
        assertEquals(FetchError.CONNECT_REFUSED, result.error(), result.toString());
        assertTrue(result.error().retryable());
    }

    @Test
    void unknownHost() {
        FetchResult result = fetch("http://no-such-host.invalid/");
        assertEquals(FetchError.DNS, result.error(), result.toString());
    }

    @Test
    void sizeLimitAnnouncedByContentLength() {
        try (HttpFetcher small = open(FetcherConfig.builder().maxBodyBytes(1 << 20).build())) {
            FetchResult result = fetch(small, FetchRequest.get(origin.url(0, HugePage.path(3_000_000, false))));
            assertEquals(FetchError.TOO_LARGE, result.error());
            assertEquals(200, result.status());
            assertEquals(0, result.body().length);
            assertFalse(result.error().retryable());
            assertTrue(fetch(small, FetchRequest.get(origin.url(0, StatusRoute.path(204)))).ok(), "the host is still usable");
        }
    }

    @Test
    void theSizeLimitDoesNotApplyToTheContentLengthOfAHead() {
        try (HttpFetcher small = open(FetcherConfig.builder().maxBodyBytes(1 << 20).build())) {
            FetchRequest head = FetchRequest.get(origin.url(0, HugePage.path(3_000_000, false))).withMethod("HEAD", new byte[0]);
            FetchResult result = fetch(small, head);
            assertTrue(result.ok(), result.toString());
            assertEquals("3000000", result.headers().last("Content-Length"));
            assertEquals(0, result.body().length);
        }
    }

    @Test
    void sizeLimitOnAChunkedBodyKeepsWhatFits() {
        try (HttpFetcher small = open(FetcherConfig.builder().maxBodyBytes(1 << 20).build())) {
            FetchResult result = fetch(small, FetchRequest.get(origin.url(0, HugePage.path(3_000_000, true))));
            assertEquals(FetchError.TOO_LARGE, result.error());
            assertEquals(1 << 20, result.body().length);
            FetchResult fits = fetch(small, FetchRequest.get(origin.url(0, HugePage.path(1 << 20, true))));
            assertTrue(fits.ok(), fits.toString());
            assertEquals(1 << 20, fits.body().length);
        }
    }

    @Test
    void aRequestThatCutsTheBodyKeepsThatMuchWhateverTheSizeLimit() {
        int cut = 300_000;
        try (HttpFetcher small = open(FetcherConfig.builder().maxBodyBytes(100_000).build())) {
            for (boolean chunked : List.of(false, true)) {
                FetchResult result = fetch(small, FetchRequest.get(origin.url(0, HugePage.path(3_000_000, chunked))).withBodyCut(cut));
                assertTrue(result.ok(), "chunked " + chunked + ": " + result);
                assertEquals(cut, result.body().length, "chunked " + chunked);
            }
            FetchResult bomb = fetch(small, FetchRequest.get(origin.url(0, CompressionBomb.path(10_240, "gzip"))).withBodyCut(cut));
            assertTrue(bomb.ok(), bomb.toString());
            assertArrayEquals(new byte[cut], bomb.body());
            FetchResult shorter = fetch(small, FetchRequest.get(origin.url(0, HugePage.path(200_000, false))).withBodyCut(cut));
            assertTrue(shorter.ok(), "the cut stands for the size limit: " + shorter);
            assertEquals(200_000, shorter.body().length);
            assertEquals(FetchError.TOO_LARGE, fetch(small, FetchRequest.get(origin.url(0, HugePage.path(200_000, false)))).error(),
                    "a request that cuts nothing keeps the limit");
        }
    }

    @Test
    void decodesGzipAndDeflateAndDropsTheEncodingHeader() {
        for (String path : List.of(GzipRoute.PATH, DeflateRoute.PATH, DeflateRoute.PATH + "?raw=true")) {
            FetchResult result = fetch(origin.url(0, path));
            assertTrue(result.ok(), path + ": " + result);
            assertEquals(GzipRoute.HTML, new String(result.body(), StandardCharsets.UTF_8), path);
            assertFalse(result.headers().contains("Content-Encoding"), path);
            assertTrue(result.headers().contains("Content-Length"), "the compressed length stays, as in Scrapy: " + path);
        }
    }

    @Test
    void headRequestDoesNotDropTheEncodingHeader() {
        FetchResult result = fetch(fetcher, FetchRequest.get(origin.url(0, GzipRoute.PATH)).withMethod("HEAD", new byte[0]));
        assertTrue(result.ok(), result.toString());
        assertEquals(0, result.body().length);
        assertEquals("gzip", result.headers().first("Content-Encoding"));
    }

    @Test
    void postsABody() {
        FetchResult result = fetch(fetcher, FetchRequest.get(origin.url(0, EchoHeaders.PATH))
                .withMethod("POST", "a=1&b=2".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(result.text().contains("\"method\":\"POST\""), result.text());
        assertTrue(result.text().contains("\"content-length\":[\"7\"]"), result.text());
    }

    @Test
    void redirectsAreReportedNotFollowed() {
        FetchResult result = fetch(origin.url(0, RedirectRoute.to(301, "/p/1") + "&probe=redirect"));
        assertEquals(301, result.status());
        assertEquals("Moved Permanently", result.reason());
        assertEquals(origin.url(0, "/p/1"), result.location());
        assertEquals(1, origin.requests().matching(r -> r.uri().endsWith("probe=redirect")).size());
        assertEquals(0, origin.requests().matching(r -> r.uri().equals("/p/1") && r.time().isAfter(
                origin.requests().matching(x -> x.uri().endsWith("probe=redirect")).getFirst().time())).size());
        assertEquals(origin.url(0, "/p/2"), fetch(origin.url(0, RedirectRoute.to(302, "../p/2"))).location());
        assertEquals(origin.url(0, "/p/caf%C3%A9"), fetch(origin.url(0, "/utf8-location")).location(),
                "a UTF-8 Location is escaped as UTF-8");
        assertEquals(origin.url(0, "/p/caf%E9"), fetch(origin.url(0, RedirectRoute.to(307, "/p/café"))).location(),
                "bytes that are not UTF-8 are escaped one by one");
        assertEquals(origin.url(1, "/p/3"), fetch(origin.url(0, RedirectRoute.to(308, origin.url(1, "/p/3")))).location());
        assertNull(fetch(origin.url(0, StatusRoute.path(304))).location(), "304 is no redirect");
    }

    @Test
    void reportsEncodingsAsScrapyNamesThem() {
        FetchResult greek = fetch(origin.url(0, NonUtf8Page.path("iso-8859-7", "header")));
        assertEquals("iso8859-7", greek.encoding().name());
        assertTrue(greek.text().contains(NonUtf8Page.GREEK), greek.text());
        FetchResult cyrillic = fetch(origin.url(0, NonUtf8Page.path("windows-1251", "meta")));
        assertEquals("cp1251", cyrillic.encoding().name());
        assertTrue(cyrillic.text().contains(NonUtf8Page.CYRILLIC), cyrillic.text());
        assertEquals("iso8859-7", fetch(origin.url(0, NonUtf8Page.path("iso-8859-7", "http-equiv"))).encoding().name());
        assertEquals("cp1252", fetch(origin.url(0, NonUtf8Page.path("iso-8859-7", "none"))).encoding().name(),
                "undeclared bytes that are not UTF-8 read as cp1252");
        assertEquals("cp1252", fetch(origin.url(0, StatusRoute.path(200))).encoding().name(), "undeclared ASCII is cp1252");
    }

    @Test
    void keepsRepeatedHeadersInOrder() {
        FetchResult result = fetch(origin.url(0, SetCookieRoute.PATH + "?a=1&b=2&c=3"));
        assertEquals(List.of("a=1; Path=/", "b=2; Path=/", "c=3; Path=/"), result.headers().all("set-cookie"));
        assertEquals(List.of("a=1; Path=/", "b=2; Path=/", "c=3; Path=/"), result.headers().toScrapyMap().get("Set-Cookie"));
    }

    @Test
    void anyStatusIsAResponse() {
        FetchResult missing = fetch(origin.url(0, StatusRoute.path(404)));
        assertTrue(missing.ok());
        assertEquals(404, missing.status());
        FetchResult teapot = fetch(origin.url(0, StatusRoute.PATH + "?code=418&reason=Short+and+stout"));
        assertEquals("Short and stout", teapot.reason());
        String flaky = origin.url(0, FlakyThenOk.path(1, "fetcher-flaky"));
        assertEquals(503, fetch(flaky).status());
        assertEquals(200, fetch(flaky).status());
    }

    @Test
    void brokenResponses() {
        assertEquals(FetchError.RESET, fetch(origin.url(0, BrokenResponse.path("reset"))).error());
        assertEquals(FetchError.RESET, fetch(origin.url(0, BrokenResponse.path("close"))).error());
        FetchResult truncated = fetch(origin.url(0, BrokenResponse.path("truncate")));
        assertEquals(FetchError.RESET, truncated.error(), truncated.toString());
        assertEquals(200, truncated.status());
        assertEquals(FetchError.PROTOCOL, fetch(origin.url(0, BrokenResponse.path("garbage"))).error());
    }

    @Test
    void staleKeptAliveConnectionIsRetriedOnceOnANewOne() {
        String url = origin.url(1, "/second-request-dropped");
        assertTrue(fetch(url).ok());
        FetchResult second = fetch(url);
        assertTrue(second.ok(), second.toString());
        assertFalse(second.timings().reusedConnection());
        assertEquals(3, origin.requests().matching(r -> r.path().equals("/second-request-dropped") && r.domainIndex() == 1)
                .size());
    }

    @Test
    void postIsNotRepeatedOnANewConnection() {
        String url = origin.url(2, "/second-request-dropped");
        assertTrue(fetch(url).ok());
        FetchResult post = fetch(fetcher, FetchRequest.get(url).withMethod("POST", new byte[] {'x'}));
        assertEquals(FetchError.RESET, post.error(), post.toString());
    }

    @Test
    void aMethodNotKnownToBeIdempotentIsNotRepeatedOnANewConnection() {
        String url = origin.url(0, "/second-request-dropped");
        assertTrue(fetch(url).ok());
        FetchResult purge = fetch(fetcher, FetchRequest.get(url).withMethod("PURGE", new byte[0]));
        assertEquals(FetchError.RESET, purge.error(), purge.toString());
        assertEquals(1, origin.requests().matching(r -> r.method().equals("PURGE")).size());
    }

    @Test
    void idleConnectionsExpire() {
        // long enough that the connection is still idle when the test thread looks, however slowly it is scheduled
        try (HttpFetcher brief = open(FetcherConfig.builder().idleConnectionTimeout(Duration.ofSeconds(2)).build())) {
            assertTrue(fetch(brief, FetchRequest.get(origin.url(1, "/p/1"))).ok());
            assertEquals(1, brief.stats().idleConnections());
            await().atMost(Duration.ofSeconds(10)).until(() -> brief.stats().idleConnections() == 0);
            assertEquals(0, brief.stats().hosts(), "an unused host is forgotten");
            assertFalse(fetch(brief, FetchRequest.get(origin.url(1, "/p/1"))).timings().reusedConnection());
        }
    }

    @Test
    void connectionTheServerWillCloseIsNotKept() {
        String url = origin.url(2, "/closing");
        assertTrue(fetch(url).ok());
        assertFalse(fetch(url).timings().reusedConnection());
        List<RecordedRequest> seen = origin.requests().forPath("/closing");
        assertEquals(2, seen.size());
        assertTrue(seen.get(0).connectionId() != seen.get(1).connectionId());
    }

    @Test
    void refusesWhatCannotBeSent() {
        assertEquals(FetchError.INVALID_REQUEST, fetch("ftp://example.com/file").error());
        assertEquals(FetchError.INVALID_REQUEST, fetch("http:///no-host").error());
        assertEquals(FetchError.INVALID_REQUEST, fetch("http://example.com:99999/").error());
        assertEquals(FetchError.INVALID_REQUEST, fetch("http://[::1/").error());
        FetchResult injected = fetch(fetcher, FetchRequest.get(origin.url(0, "/p/1")).withUserAgent("bot\r\nX-Evil: 1"));
        assertEquals(FetchError.INVALID_REQUEST, injected.error());
        assertEquals(FetchError.INVALID_REQUEST, fetch(fetcher, FetchRequest.get(origin.url(0, "/")).withMethod("G T", new byte[0])).error());
    }

    @Test
    void addressPolicyRefusesLoopbackHowEverItIsNamed() {
        try (HttpFetcher guarded = open(FetcherConfig.builder().addressPolicy(AddressPolicy.publicOnly(List.of())).build())) {
            int before = origin.requests().matching(r -> r.uri().startsWith("/p/0")).size();
            for (String host : List.of(origin.host(0), "127.2", "2130706434", "0x7f000002", "localhost", "[::ffff:127.0.0.2]")) {
                FetchResult refused = fetch(guarded, FetchRequest.get("http://" + host + ":" + origin.port() + "/p/0"));
                assertEquals(FetchError.FORBIDDEN_ADDRESS, refused.error(), host + ": " + refused);
                assertFalse(refused.error().retryable());
                assertTrue(refused.errorMessage().endsWith(" is a loopback address"), refused.errorMessage());
            }
            assertEquals(before, origin.requests().matching(r -> r.uri().startsWith("/p/0")).size(), "no request reached the origin");
        }
    }

    @Test
    void throughAProxyTheTargetIsCheckedAndTheConfiguredProxyIsNot() throws Exception {
        AddressPolicy allowingDomainOne = AddressPolicy.publicOnly(List.of(NetworkRange.parse(origin.host(1))));
        try (TestProxy proxy = new TestProxy(null);
                HttpFetcher proxied = open(FetcherConfig.builder().addressPolicy(allowingDomainOne)
                        .proxy(ProxyConfig.of("127.0.0.1", proxy.port())).build())) {
            assertTrue(fetch(proxied, FetchRequest.get(origin.url(1, "/p/3"))).ok(), "the loopback proxy is used");
            FetchResult refused = fetch(proxied, FetchRequest.get(origin.url(2, "/p/3")));
            assertEquals(FetchError.FORBIDDEN_ADDRESS, refused.error(), refused.toString());
            assertEquals(List.of("GET " + origin.url(1, "/p/3") + " HTTP/1.1"), proxy.requestLines(), "the refused target never reached the proxy");
        }
    }

    @Test
    void aDecompressionBombStopsAtTheLimitWithoutInflatingMore() {
        int limit = 1 << 20;
        try (HttpFetcher small = open(FetcherConfig.builder().maxBodyBytes(limit).build())) {
            for (String encoding : List.of("gzip", "deflate")) {
                long before = small.inflatedBytes();
                FetchResult result = fetch(small, FetchRequest.get(origin.url(0, CompressionBomb.path(10_240, encoding))));
                long inflated = small.inflatedBytes() - before;
                assertEquals(FetchError.TOO_LARGE, result.error(), encoding + ": " + result);
                assertEquals(limit, result.body().length, encoding);
                assertTrue(inflated <= limit + 1L, encoding + ": inflated " + inflated + " bytes for a limit of " + limit
                        + " (one more tells that the body goes on)");
            }
            FetchResult atTheLimit = fetch(small, FetchRequest.get(origin.url(0, CompressionBomb.path(1, "gzip"))));
            assertTrue(atTheLimit.ok(), atTheLimit.toString());
            assertArrayEquals(new byte[limit], atTheLimit.body(), "a body of exactly the limit is whole");
        }
    }

    @Test
    void cancellingAFetchAbortsIt() {
        CompletableFuture<FetchResult> future = fetcher.fetch(FetchRequest.get(origin.url(2, SlowBody.path(10, 10, 0, 4000))));
        await().atMost(Duration.ofSeconds(10)).until(() -> fetcher.stats().active() > 0);
        future.cancel(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> fetcher.stats().active() == 0);
    }

    @Test
    void closingEndsWaitingAndRunningFetches() {
        HttpFetcher closing = open(FetcherConfig.builder().maxConnections(1).build());
        CompletableFuture<FetchResult> running = closing.fetch(FetchRequest.get(origin.url(0, SlowBody.path(10, 10, 0, 5000)
                + "&probe=closing")));
        CompletableFuture<FetchResult> waiting = closing.fetch(FetchRequest.get(origin.url(0, "/p/0")));
        await().atMost(Duration.ofSeconds(10)).until(() -> !origin.requests().matching(r -> r.uri().endsWith("probe=closing")).isEmpty());
        assertFalse(waiting.isDone(), "one slot: the second fetch waits");
        closing.close();
        assertEquals(FetchError.CANCELLED, running.join().error());
        assertEquals(FetchError.CANCELLED, waiting.join().error());
        assertEquals(FetchError.CANCELLED, closing.fetch(FetchRequest.get(origin.url(0, "/p/0"))).join().error());
    }

    @Test
    void tlsVerifiesCertificatesUnlessTrustingAll() throws Exception {
        try (TestOrigin secure = TestOrigin.builder().site(SITE).tls().start()) {
            String url = secure.httpsBaseUrl(0) + "/p/1";
            try (HttpFetcher verifying = open(FetcherConfig.defaults())) {
                FetchResult refused = fetch(verifying, FetchRequest.get(url));
                assertEquals(FetchError.TLS, refused.error(), refused.toString());
                assertFalse(refused.error().retryable());
            }
            try (HttpFetcher trusting = open(FetcherConfig.builder().trustedCertificates(List.of(secure.certificate())).build())) {
                FetchResult result = fetch(trusting, FetchRequest.get(url));
                assertTrue(result.ok(), result.toString());
                assertArrayEquals(SITE.render(new PageRef(0, 1), secure::httpsBaseUrl), result.body());
                assertTrue(fetch(trusting, FetchRequest.get(url)).timings().reusedConnection());
            }
            try (HttpFetcher insecure = open(FetcherConfig.builder().trustAllCertificates(true).build())) {
                assertTrue(fetch(insecure, FetchRequest.get(url)).ok());
                FetchResult plainPort = fetch(insecure, FetchRequest.get("https://" + secure.host(0) + ":" + secure.port() + "/p/1"));
                assertEquals(FetchError.TLS, plainPort.error(), "TLS to a plain HTTP port: " + plainPort);
            }
        }
    }

    @Test
    void plainHttpThroughAProxy() throws Exception {
        String credentials = "Basic " + Base64.getEncoder().encodeToString("crawler:secret".getBytes(StandardCharsets.UTF_8));
        try (TestProxy proxy = new TestProxy(credentials);
                HttpFetcher proxied = open(FetcherConfig.builder()
                        .proxy(new ProxyConfig("127.0.0.1", proxy.port(), "crawler", "secret")).build())) {
            FetchResult result = fetch(proxied, FetchRequest.get(origin.url(1, "/p/2") + "?via=proxy"));
            assertTrue(result.ok(), result.toString());
            assertArrayEquals(SITE.render(new PageRef(1, 2), origin::baseUrl), result.body());
            assertEquals(List.of("GET " + origin.url(1, "/p/2") + "?via=proxy HTTP/1.1"), proxy.requestLines());
            assertEquals(List.of(credentials), proxy.authorizations());
            assertEquals(1, origin.requests().matching(r -> r.uri().equals("/p/2?via=proxy")).size());
        }
    }

    @Test
    void httpsThroughAProxyTunnel() throws Exception {
        try (TestOrigin secure = TestOrigin.builder().site(SITE).tls().start();
                TestProxy proxy = new TestProxy(null);
                HttpFetcher proxied = open(FetcherConfig.builder().proxy(ProxyConfig.of("127.0.0.1", proxy.port()))
                        .trustedCertificates(List.of(secure.certificate())).build())) {
            FetchResult result = fetch(proxied, FetchRequest.get(secure.httpsBaseUrl(2) + "/p/5"));
            assertTrue(result.ok(), result.toString());
            assertEquals(List.of("CONNECT " + secure.host(2) + ":" + secure.tlsPort() + " HTTP/1.1"), proxy.requestLines());
        }
    }

    /** A name resolved and checked by the node is tunnelled to by the address checked, not by a name the proxy resolves anew. */
    @Test
    void aTunnelAsksTheProxyForTheAddressCheckedNotTheName() throws Exception {
        AddressPolicy allowingLoopback = AddressPolicy.publicOnly(List.of(NetworkRange.parse("127.0.0.1")));
        try (TestOrigin secure = TestOrigin.builder().site(SITE).tls().start();
                TestProxy proxy = new TestProxy(null);
                HttpFetcher proxied = open(FetcherConfig.builder().addressPolicy(allowingLoopback)
                        .proxy(ProxyConfig.of("127.0.0.1", proxy.port())).trustedCertificates(List.of(secure.certificate())).build())) {
            fetch(proxied, FetchRequest.get("https://localhost:" + secure.tlsPort() + "/p/5")); // its certificate does not name localhost
            assertEquals(List.of("CONNECT 127.0.0.1:" + secure.tlsPort() + " HTTP/1.1"), proxy.requestLines());
        }
    }

    @Test
    void aRequestsOwnProxyAuthorizationIsNotSentThroughTheTunnelToTheOrigin() throws Exception {
        try (TestOrigin secure = TestOrigin.builder().site(SITE).tls().start();
                TestProxy proxy = new TestProxy(null);
                HttpFetcher proxied = open(FetcherConfig.builder().proxy(ProxyConfig.of("127.0.0.1", proxy.port()))
                        .trustedCertificates(List.of(secure.certificate())).build())) {
            FetchResult result = fetch(proxied, FetchRequest.get(secure.httpsBaseUrl(1) + "/p/4")
                    .withHeader("Proxy-Authorization", "Basic Y3Jhd2xlcjpzZWNyZXQ="));
            assertTrue(result.ok(), result.toString());
            RecordedRequest seen = secure.requests().forPath("/p/4").getLast();
            assertNull(seen.header("Proxy-Authorization"), "the proxy's credentials stay out of the tunnel, as in Scrapy");
        }
    }

    @Test
    void proxyRefusingTheCredentialsIsAConnectFailure() throws Exception {
        try (TestProxy proxy = new TestProxy("Basic nope");
                HttpFetcher proxied = open(FetcherConfig.builder().proxy(ProxyConfig.of("127.0.0.1", proxy.port()))
                        .trustAllCertificates(true).build());
                TestOrigin secure = TestOrigin.builder().tls().start()) {
            FetchResult tunnel = fetch(proxied, FetchRequest.get(secure.httpsBaseUrl(0) + "/status"));
            assertEquals(FetchError.CONNECT_REFUSED, tunnel.error(), tunnel.toString());
            FetchResult plain = fetch(proxied, FetchRequest.get(origin.url(0, "/status")));
            assertEquals(407, plain.status(), "a plain request gets the proxy's own answer");
        }
    }
}
