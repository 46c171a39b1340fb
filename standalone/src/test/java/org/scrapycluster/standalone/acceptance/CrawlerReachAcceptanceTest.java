package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.crawler.node.RequestProcessor;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.CompressionBomb;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.RedirectRoute;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * What a crawler may reach, from a client's request on Kafka through the Kafka monitor to a running crawler
 * node with the guard on ({@code DOWNLOAD_FORBID_PRIVATE_ADDRESSES: true}): the test origin's first domain
 * (127.0.0.2) is let through by {@code DOWNLOAD_ALLOWED_PRIVATE_NETWORKS}, its others are loopback
 * addresses like any other. A refused page is never requested (nor its robots.txt), is counted on the
 * metrics endpoint, and a log line says why; a redirect from the allowed domain to a refused one stops at
 * the hop; a decompression bomb on the allowed domain stops at {@code DOWNLOAD_MAXSIZE} and publishes
 * nothing, as an oversized page.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrawlerReachAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(5).domains(3).pagesPerDomain(3).linksPerPage(1)
            .pageBytes(300).build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private CapturedLog logged;
    private TestOrigin origin;
    private AcceptanceCluster cluster;
    private int metricsPort;

    @BeforeAll
    void start(EmbeddedStack stack) {
        origin = TestOrigin.start(SITE);
        metricsPort = FreePorts.pick();
        cluster = new AcceptanceCluster(stack).throttle(1000, 1, false)
                .set("DOWNLOAD_FORBID_PRIVATE_ADDRESSES", true)
                .set("DOWNLOAD_ALLOWED_PRIVATE_NETWORKS", origin.host(0) + "/32")
                .set("DOWNLOAD_MAXSIZE", 1 << 20)
                .set("METRICS_PORT", metricsPort)
                .set("METRICS_HOST", "127.0.0.1")
                .startWithCrawlers(1);
        logged = CapturedLog.start(RequestProcessor.class, null);
    }

    @AfterAll
    void stop() {
        logged.close();
        cluster.close();
        origin.close();
    }

    @Test
    void aPageOnALoopbackAddressIsNotFetchedButCountedAndSaidWhy() throws Exception {
        String appid = AcceptanceCluster.unique("app");
        double refusedBefore = counted("forbidden_address");
        PageRef allowed = new PageRef(0, 0);
        PageRef refused = new PageRef(1, 0);
        cluster.send("url", origin.pageUrl(refused), "appid", appid, "crawlid", "reach");
        cluster.send("url", origin.pageUrl(allowed), "appid", appid, "crawlid", "reach");

        cluster.results().await(result -> result.get("appid").asText().equals(appid));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> counted("forbidden_address") >= refusedBefore + 1);

        assertEquals(List.of(), origin.requests().forDomain(1), "nothing, not even robots.txt, was asked of " + origin.host(1));
        assertEquals(List.of(origin.pageUrl(allowed)), cluster.results().answers().stream()
                .filter(result -> result.get("appid").asText().equals(appid)).map(result -> result.get("url").asText()).toList());
        assertTrue(saidWhy(origin.host(1)), "a line says why: " + logged.lines());
    }

    @Test
    void aRedirectFromAnAllowedDomainToALoopbackOneIsRefusedAtTheHop() throws Exception {
        String appid = AcceptanceCluster.unique("app");
        double refusedBefore = counted("forbidden_address");
        String redirect = origin.url(0, RedirectRoute.to(302, origin.url(2, "/p/1")));
        cluster.send("url", redirect, "appid", appid, "crawlid", "hop");

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> counted("forbidden_address") >= refusedBefore + 1);

        assertEquals(1, origin.requests().matching(request -> request.domainIndex() == 0
                && request.uri().startsWith(RedirectRoute.PATH)).size(), "the allowed domain answered with the redirect");
        assertEquals(List.of(), origin.requests().forDomain(2), "the hop to " + origin.host(2) + " was not made");
        assertTrue(saidWhy(origin.host(2)), "a line says why: " + logged.lines());
    }

    @Test
    void aDecompressionBombIsDroppedAtTheSizeLimitLikeAnOversizedPage() throws Exception {
        String appid = AcceptanceCluster.unique("app");
        double tooLargeBefore = counted("too_large");
        String bomb = origin.url(0, CompressionBomb.path(10_240, "gzip"));
        cluster.send("url", bomb, "appid", appid, "crawlid", "bomb");
        cluster.send("url", origin.pageUrl(new PageRef(0, 1)), "appid", appid, "crawlid", "after-the-bomb");

        cluster.results().await(result -> result.get("crawlid").asText().equals("after-the-bomb"));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> counted("too_large") >= tooLargeBefore + 1);

        assertEquals(1, origin.requests().matching(request -> request.uri().startsWith(CompressionBomb.PATH)).size(),
                "fetched once, not retried");
        assertTrue(cluster.results().answers().stream().noneMatch(result -> result.get("url").asText().equals(bomb)),
                "nothing is published for the bomb");
    }

    /** Whether a WARN line names {@code host} as a loopback address and the setting that refused it. */
    private boolean saidWhy(String host) {
        return logged.events().stream().anyMatch(event -> event.getFormattedMessage().contains("DOWNLOAD_FORBID_PRIVATE_ADDRESSES")
                && event.getKeyValuePairs() != null && event.getKeyValuePairs().stream().anyMatch(pair
                        -> pair.key.equals("error_reason") && String.valueOf(pair.value).equals(host + " is a loopback address")));
    }

    /** The crawlers' {@code crawler_errors_total} of {@code kind}, read from the metrics endpoint. */
    private double counted(String kind) throws IOException, InterruptedException {
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(line -> line.startsWith("crawler_errors_total{") && line.contains("kind=\"" + kind + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
