package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

/** Which policy a request found on a page follows, and what a redirect does to its Referer. */
class ReferrersTest {

    private final Referrers referrers = new Referrers(true, ReferrerPolicy.SCRAPY_DEFAULT);

    @Test
    void theRequestsMetaPolicyComesFirstThenThePagesHeaderThenTheSetting() {
        CrawlRequest plain = CrawlRequest.get("http://other.test/", Map.of());
        CrawlRequest sameOrigin = CrawlRequest.get("http://other.test/", Map.of("referrer_policy", "same-origin"));
        CrawlRequest typo = CrawlRequest.get("http://other.test/", Map.of("referrer_policy", "sme-origin"));

        UnaryOperator<CrawlRequest> page = referrers.page("http://page.test/a.html", Optional.of("origin"));

        assertEquals(Optional.of("http://page.test/"), page.apply(plain).header("Referer"), "the page's header");
        assertEquals(Optional.empty(), page.apply(sameOrigin).header("Referer"), "the request's meta");
        assertEquals(Optional.of("http://page.test/a.html"), page.apply(typo).header("Referer"), "a meta naming none: the setting");
        assertEquals(Optional.of("http://page.test/a.html"),
                referrers.page("http://page.test/a.html", Optional.of("nonsense")).apply(plain).header("Referer"),
                "a header naming none: the setting");
    }

    @Test
    void aRequestKeepsTheRefererItHasAndAnUnescapedPageIsEscaped() {
        CrawlRequest given = CrawlRequest.get("http://other.test/", Map.of()).withHeader("Referer", "http://mine.test/");

        assertEquals(Optional.of("http://mine.test/"), referrers.page("http://page.test/", Optional.empty()).apply(given).header("Referer"));
        assertEquals(Optional.of("http://xn--bcher-kva.test/%C3%A4"), referrers.page("http://bücher.test/ä", Optional.empty())
                .apply(CrawlRequest.get("http://other.test/", Map.of())).header("Referer"));
    }

    @Test
    void aRedirectsRequestHasItsRefererCheckedForItsNewUrl() {
        Map<String, Object> redirected = Map.of("redirect_urls", List.of("https://a.test/old"));
        CrawlRequest toHttp = CrawlRequest.get("http://a.test/new", redirected).withHeader("Referer", "https://a.test/page");
        CrawlRequest toHttps = CrawlRequest.get("https://a.test/new", redirected).withHeader("Referer", "https://a.test/page");
        CrawlRequest retried = CrawlRequest.get("http://a.test/new", Map.of()).withHeader("Referer", "https://a.test/page");

        assertEquals(Optional.empty(), referrers.rescheduled(toHttp).header("Referer"), "https to http: dropped");
        assertEquals(Optional.of("https://a.test/page"), referrers.rescheduled(toHttps).header("Referer"));
        assertEquals(Optional.of("https://a.test/page"), referrers.rescheduled(retried).header("Referer"), "not a redirect");
    }

    @Test
    void turnedOffItSetsNone() {
        Referrers off = new Referrers(false, ReferrerPolicy.UNSAFE_URL);

        assertEquals(Optional.empty(), off.page("http://page.test/", Optional.empty())
                .apply(CrawlRequest.get("http://other.test/", Map.of())).header("Referer"));
    }
}
