package org.scrapycluster.crawler.spider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.request.CrawlRequest;

/** A page's links as a spider asks for them: found once, however often it asks. */
class SpiderResponseTest {

    private static final String URL = "http://a.test/";

    @Test
    void theLinksAreFoundOnceHoweverOftenTheSpiderAsks() {
        AtomicInteger asked = new AtomicInteger();
        SpiderResponse page = page(filter((link, on) -> asked.incrementAndGet() > 0));

        List<PageLink> first = page.links();

        assertEquals(List.of("http://a.test/a.html", "http://a.test/b.html"), first.stream().map(PageLink::url).toList());
        assertEquals(first, page.links());
        assertEquals(2, asked.get(), "each link put to the filter once");
    }

    @Test
    void aFilterThatAsksThePageForItsLinksIsToldItMayNot() {
        SpiderResponse page = page(filter((link, on) -> on.links().isEmpty()));

        IllegalStateException refused = assertThrows(IllegalStateException.class, page::links);

        assertTrue(refused.getMessage().startsWith("A link filter asked the page for its links"), refused.getMessage());
    }

    private static LinkFilter filter(BiPredicate<PageLink, Page> allows) {
        return new LinkFilter() {
            @Override
            public String name() {
                return "asking";
            }

            @Override
            public boolean allows(PageLink link, Page page) {
                return allows.test(link, page);
            }
        };
    }

    private static SpiderResponse page(LinkFilter filter) {
        String html = "<html><body><a href=\"/a.html\">a</a> <a href=\"/b.html\">b</a></body></html>";
        HeaderMap headers = HeaderMap.builder().add("Content-Type", "text/html; charset=utf-8").build();
        FetchResult fetch = new FetchResult(URL, 200, "OK", headers, html.getBytes(StandardCharsets.UTF_8),
                new DetectedEncoding("utf-8", StandardCharsets.UTF_8), HeaderMap.empty(), null, null, null,
                new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false));
        LinkRules links = new LinkRules(List.of(filter), Duration.ofSeconds(2), cut -> { });
        return new SpiderResponse(CrawlRequest.get(URL, Map.of()), fetch, "OK", links);
    }
}
