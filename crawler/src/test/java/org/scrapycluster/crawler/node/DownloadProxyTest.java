package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.crawler.fetch.TestProxy;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.TestOrigin;

/** {@code DOWNLOAD_PROXY}: every fetch of a node goes through the proxy, with its credentials. */
@ExtendWith(SharedStack.class)
class DownloadProxyTest {

    private final EmbeddedStack stack;

    DownloadProxyTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aNodeFetchesThroughTheProxyOfItsSettings() throws Exception {
        String credentials = "Basic " + Base64.getEncoder().encodeToString("crawler:p@ss".getBytes(StandardCharsets.UTF_8));
        try (TestOrigin origin = TestOrigin.builder().domains(1).start();
             TestProxy proxy = new TestProxy(credentials);
             CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_PROXY", "http://crawler:p%40ss@127.0.0.1:" + proxy.port());
            bed.startNode();
            String url = origin.url(0, StatusRoute.path(200) + "&via=proxy");
            bed.seed(CrawlerTestBed.feedItem(url, "proxied"));

            assertEquals(List.of(url), CrawlerTestBed.urls(bed.awaitResults(1)));
            assertEquals(List.of("GET " + url + " HTTP/1.1"), proxy.requestLines());
            assertEquals(List.of(credentials), proxy.authorizations());
        }
    }

    @Test
    void aProxyThatIsNotAnHttpUrlIsRefusedWithTheSettingsName() {
        try (CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            SettingsException refused = assertThrows(SettingsException.class,
                    () -> CrawlerConfig.from(bed.set("DOWNLOAD_PROXY", "socks5://127.0.0.1:1080").settings()).fetcher());
            assertTrue(refused.getMessage().contains("DOWNLOAD_PROXY") && refused.getMessage().contains("must be an http:// URL"),
                    refused.getMessage());
        }
    }
}
