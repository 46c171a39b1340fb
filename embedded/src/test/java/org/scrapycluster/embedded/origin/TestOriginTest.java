package org.scrapycluster.embedded.origin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TestOriginTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(7).domains(4).pagesPerDomain(20)
            .pageBytes(4000).linksPerPage(6).build();

    private static TestOrigin origin;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        origin = TestOrigin.builder().site(SITE).domains(6).robots(RobotsTxt.allowAll())
                .robots(1, RobotsTxt.disallow("/private").withCrawlDelay(3)).start();
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        origin.close();
    }

    private static HttpResponse<byte[]> get(String url, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void servesEveryDomainOnItsOwnAddressAndOnePort() throws Exception {
        assertEquals(6, origin.domains());
        for (int d = 0; d < SITE.domains(); d++) {
            PageRef page = new PageRef(d, 3);
            assertEquals("http://127.0.0." + (d + 2) + ":" + origin.port() + "/p/3", origin.pageUrl(page));
            HttpResponse<byte[]> response = get(origin.pageUrl(page));
            assertEquals(200, response.statusCode());
            assertArrayEquals(SITE.render(page, origin::baseUrl), response.body());
            assertEquals("text/html; charset=utf-8", response.headers().firstValue("content-type").orElseThrow());
        }
    }

    @Test
    void servesFromTheFirstAddressItIsGiven() throws Exception {
        try (TestOrigin shifted = TestOrigin.builder().site(SITE).firstAddress(9).requestLogCapacity(10).start()) {
            PageRef page = new PageRef(1, 3);
            assertEquals("http://127.0.0.12:" + shifted.port() + "/p/3", shifted.pageUrl(page));
            HttpResponse<byte[]> response = get(shifted.pageUrl(page));
            assertEquals(200, response.statusCode());
            assertArrayEquals(SITE.render(page, shifted::baseUrl), response.body(), "the page of domain 1, linking to 127.0.0.11 to 14");
            assertEquals(1, shifted.requests().matching(r -> r.address().equals("127.0.0.12")).getFirst().domainIndex());
            assertThrows(IOException.class, () -> get("http://127.0.0.15:" + shifted.port() + "/p/3"), "nothing after domain 3");
        }
    }

    @Test
    void unknownPagesAndPathsAre404() throws Exception {
        assertEquals(404, get(origin.url(0, "/p/20")).statusCode());
        assertEquals(404, get(origin.url(0, "/p/x")).statusCode());
        assertEquals(404, get(origin.url(4, "/p/0")).statusCode(), "domain 4 is served but has no site pages");
        assertEquals(404, get(origin.url(0, "/nothing/here")).statusCode());
    }

    @Test
    void recordsEveryRequestWithItsDomainHeadersAndConnection() throws Exception {
        String path = "/status?code=204&probe=record";
        get(origin.url(2, path), "User-Agent", "probe/1.0", "X-Probe", "a");
        get(origin.url(2, path), "User-Agent", "probe/1.0", "X-Probe", "b");
        List<RecordedRequest> seen = origin.requests().matching(r -> r.uri().equals(path));
        assertEquals(2, seen.size());
        RecordedRequest first = seen.getFirst();
        assertEquals(2, first.domainIndex());
        assertEquals("127.0.0.4", first.address());
        assertEquals("GET", first.method());
        assertEquals("/status", first.path());
        assertEquals("probe/1.0", first.header("user-agent"));
        assertEquals(List.of("a"), first.headers().get("X-Probe"));
        assertEquals(first.connectionId(), seen.get(1).connectionId(), "the client kept the connection alive");
        assertTrue(seen.get(1).nanoTime() >= first.nanoTime());
    }

    @Test
    void robotsTxtPerDomain() throws Exception {
        assertEquals("User-agent: *\nDisallow:\n", new String(get(origin.url(0, "/robots.txt")).body(), StandardCharsets.UTF_8));
        assertEquals("User-agent: *\nDisallow: /private\nCrawl-delay: 3\n",
                new String(get(origin.url(1, "/robots.txt")).body(), StandardCharsets.UTF_8));
    }

    @Test
    void statusWithItsOwnReason() throws Exception {
        HttpResponse<byte[]> response = get(origin.url(0, "/status?code=418&reason=Teapot"));
        assertEquals(418, response.statusCode());
        assertEquals("status 418", new String(response.body(), StandardCharsets.US_ASCII));
        assertEquals(400, get(origin.url(0, "/status?code=abc")).statusCode());
    }

    @Test
    void redirects() throws Exception {
        HttpResponse<byte[]> once = get(origin.url(0, RedirectRoute.to(301, "/p/1")));
        assertEquals(301, once.statusCode());
        assertEquals("/p/1", once.headers().firstValue("location").orElseThrow());
        assertEquals(RedirectRoute.chain(2), RedirectRoute.PATH + "/chain/2");
        assertEquals("/redirect/chain/1", get(origin.url(0, RedirectRoute.chain(2))).headers().firstValue("location").orElseThrow());
        assertEquals(200, get(origin.url(0, RedirectRoute.chain(0))).statusCode());
        assertEquals("/redirect/loop/b", get(origin.url(0, RedirectRoute.LOOP_PATH)).headers().firstValue("location").orElseThrow());
        assertEquals("/redirect/loop/a", get(origin.url(0, "/redirect/loop/b")).headers().firstValue("location").orElseThrow());
    }

    @Test
    void tooManyRequestsThenThrough() throws Exception {
        String url = origin.url(3, TooManyRequests.path(2, 1));
        HttpResponse<byte[]> refused = get(url);
        assertEquals(429, refused.statusCode());
        assertEquals("2", refused.headers().firstValue("retry-after").orElseThrow());
        assertEquals(200, get(url).statusCode());
        assertEquals(429, get(origin.url(2, TooManyRequests.path(2, 1))).statusCode(), "counted per domain");
    }

    @Test
    void flakyThenOk() throws Exception {
        String url = origin.url(0, FlakyThenOk.path(2, "flaky-test"));
        assertEquals(503, get(url).statusCode());
        assertEquals(503, get(url).statusCode());
        HttpResponse<byte[]> ok = get(url);
        assertEquals(200, ok.statusCode());
        assertEquals(FlakyThenOk.OK_BODY, new String(ok.body(), StandardCharsets.UTF_8));
    }

    @Test
    void gzipAndDeflate() throws Exception {
        HttpResponse<byte[]> gzip = get(origin.url(0, GzipRoute.PATH));
        assertEquals("gzip", gzip.headers().firstValue("content-encoding").orElseThrow());
        assertEquals(GzipRoute.HTML, new String(new GZIPInputStream(new ByteArrayInputStream(gzip.body())).readAllBytes(),
                StandardCharsets.UTF_8));
        HttpResponse<byte[]> zlib = get(origin.url(0, DeflateRoute.PATH));
        assertEquals("deflate", zlib.headers().firstValue("content-encoding").orElseThrow());
        assertEquals(DeflateRoute.HTML, inflate(zlib.body(), false));
        assertEquals(DeflateRoute.HTML, inflate(get(origin.url(0, DeflateRoute.PATH + "?raw=true")).body(), true));
    }

    private static String inflate(byte[] body, boolean raw) throws IOException {
        try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(body), new Inflater(raw))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void hugePageStreamsTheExactSize() throws Exception {
        HttpResponse<byte[]> sized = get(origin.url(0, HugePage.path(3_000_000, false)));
        assertEquals(3_000_000, sized.body().length);
        assertEquals("3000000", sized.headers().firstValue("content-length").orElseThrow());
        HttpResponse<byte[]> chunked = get(origin.url(0, HugePage.path(200_001, true)));
        assertEquals(200_001, chunked.body().length);
        assertTrue(chunked.headers().firstValue("content-length").isEmpty());
    }

    @Test
    void nonUtf8Pages() throws Exception {
        HttpResponse<byte[]> greek = get(origin.url(0, NonUtf8Page.path("iso-8859-7", "header")));
        assertEquals("text/html; charset=iso-8859-7", greek.headers().firstValue("content-type").orElseThrow());
        assertTrue(new String(greek.body(), Charset.forName("iso-8859-7")).contains(NonUtf8Page.GREEK));
        HttpResponse<byte[]> cyrillic = get(origin.url(0, NonUtf8Page.path("windows-1251", "meta")));
        assertEquals("text/html", cyrillic.headers().firstValue("content-type").orElseThrow());
        String text = new String(cyrillic.body(), Charset.forName("windows-1251"));
        assertTrue(text.contains("<meta charset=\"windows-1251\">") && text.contains(NonUtf8Page.CYRILLIC));
        assertEquals(400, get(origin.url(0, NonUtf8Page.path("koi8-r", "meta"))).statusCode());
    }

    @Test
    void echoesRequestHeaders() throws Exception {
        String body = new String(get(origin.url(0, EchoHeaders.PATH + "?q=1"), "User-Agent", "echo-test/2",
                "Cookie", "a=b; c=d").body(), StandardCharsets.UTF_8);
        assertTrue(body.startsWith("{\"method\":\"GET\",\"uri\":\"/echo?q=1\",\"headers\":{"), body);
        assertTrue(body.contains("\"User-Agent\":[\"echo-test/2\"]"), body);
        assertTrue(body.contains("\"Cookie\":[\"a=b; c=d\"]"), body);
    }

    @Test
    void setsOneCookiePerParameter() throws Exception {
        HttpResponse<byte[]> response = get(origin.url(0, SetCookieRoute.PATH + "?a=1&b=2"));
        assertEquals(List.of("a=1; Path=/", "b=2; Path=/"), response.headers().allValues("set-cookie"));
    }

    @Test
    void slowBodyTakesItsTime() throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> response = get(origin.url(0, SlowBody.path(500, 100, 50, 100)));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(500, response.body().length);
        assertTrue(elapsedMillis >= 300, "first byte delay plus four intervals, took " + elapsedMillis + " ms");
    }

    @Test
    void brokenResponsesFailTheClient() {
        assertThrows(IOException.class, () -> get(origin.url(0, BrokenResponse.path("reset"))));
        assertThrows(IOException.class, () -> get(origin.url(0, BrokenResponse.path("close"))));
        assertThrows(IOException.class, () -> get(origin.url(0, BrokenResponse.path("truncate"))));
        assertThrows(IOException.class, () -> get(origin.url(0, BrokenResponse.path("garbage"))));
    }

    @Test
    void customRouteReplacesOrAdds() throws Exception {
        try (TestOrigin custom = TestOrigin.builder().route("/hello", exchange -> exchange.sendText(200, "text/plain",
                "hello " + exchange.domainIndex())).start()) {
            HttpResponse<byte[]> response = get(custom.url(0, "/hello/world"));
            assertEquals("hello 0", new String(response.body(), StandardCharsets.UTF_8));
            assertThrows(IllegalArgumentException.class, () -> custom.baseUrl(1));
            assertThrows(IllegalStateException.class, custom::certificate);
        }
    }

    @Test
    void servesHttpsWithItsOwnCertificate() throws Exception {
        try (TestOrigin secure = TestOrigin.builder().site(SITE).tls().start()) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("origin", secure.certificate());
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            try (HttpClient https = HttpClient.newBuilder().sslContext(context).build()) {
                String url = secure.httpsBaseUrl(1) + "/p/2";
                HttpResponse<byte[]> response = https.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, response.statusCode());
                assertArrayEquals(SITE.render(new PageRef(1, 2), secure::httpsBaseUrl), response.body());
            }
        }
    }
}
