package org.scrapycluster.crawler.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.scrapycluster.crawler.request.CrawlRequest;

/** Scrapy's redirect rules: which method the new request has, its bookkeeping, and the limit. */
class RedirectPolicyTest {

    private final RedirectPolicy policy = new RedirectPolicy(true, 2);
    private final CrawlRequest post = CrawlRequest.get("http://ex.com/form", Map.of("crawlid", "c")).withMethod("POST", "a=1");

    @Test
    void permanentAndTemporaryRedirectsKeepTheMethodOthersBecomeGet() {
        CrawlRequest kept = assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(post, 307, Optional.of("http://ex.com/b"))).request();
        assertEquals("POST", kept.method());
        assertEquals("a=1", kept.body());
        CrawlRequest get = assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(post, 302, Optional.of("http://ex.com/b"))).request();
        assertEquals("GET", get.method());
        assertEquals("", get.body());
        assertEquals("http://ex.com/b", get.url());
        assertEquals(1L, get.meta().get("redirect_times"));
        assertEquals(List.of("http://ex.com/form"), get.meta().get("redirect_urls"));
        assertEquals("c", get.meta().get("crawlid"));
    }

    @Test
    void theLimitStopsTheChain() {
        CrawlRequest first = ((RedirectPolicy.Follow) policy.decide(post, 301, Optional.of("http://ex.com/1"))).request();
        CrawlRequest second = ((RedirectPolicy.Follow) policy.decide(first, 301, Optional.of("http://ex.com/2"))).request();
        assertEquals(new RedirectPolicy.TooMany(2), policy.decide(second, 301, Optional.of("http://ex.com/3")));
        assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.decide(post, 301, Optional.empty()));
        assertInstanceOf(RedirectPolicy.NotFollowed.class, new RedirectPolicy(false, 20).decide(post, 301, Optional.of("http://x/")));
        CrawlRequest pythonFlag = CrawlRequest.get("http://ex.com/", Map.of("dont_redirect", 1));
        assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.decide(pythonFlag, 301, Optional.of("http://x/")),
                "dont_redirect 1, as a Python component may write it");
    }

    @Test
    void aStatusTheRequestHandlesItselfReachesTheSpider() {
        CrawlRequest handles301 = post.withMeta(Map.of("handle_httpstatus_list", List.of(301L, 404L)));
        assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.decide(handles301, 301, Optional.of("http://ex.com/b")));
        assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(handles301, 302, Optional.of("http://ex.com/b")));
        CrawlRequest handlesAll = post.withMeta(Map.of("handle_httpstatus_all", true));
        assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.decide(handlesAll, 308, Optional.of("http://ex.com/b")));
    }

    /** Not http or https, or with a host no queue is named by (an IPv4 address in another form than four decimal numbers). */
    @Test
    void aRedirectOrRefreshToAUrlNoCrawlerFetchesIsNotFollowedSoItsResponseIsPublished() {
        for (String target : List.of("file:///etc/passwd", "ftp://ex.com/a", "javascript:alert(1)", "mailto:a@ex.com",
                "http://0x7f00003b:18182/c", "http://2130706491/", "http://0177.0.0.59/", "http:///no-host")) {
            assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.decide(post, 301, Optional.of(target)), target);
            assertInstanceOf(RedirectPolicy.NotFollowed.class, policy.refresh(post, target), target);
        }
        assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(post, 302, Optional.of("HTTPS://ex.com/b")));
        assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(post, 302, Optional.of("http://127.0.0.59:18182/c")));
    }

    @Test
    void aRedirectToGetLeavesTheFormsContentHeadersBehind() {
        CrawlRequest form = post.withHeader("Content-Type", "application/x-www-form-urlencoded").withHeader("Content-Length", "3")
                .withHeader("Accept", "text/html");
        CrawlRequest get = assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(form, 303, Optional.of("http://ex.com/b"))).request();
        assertEquals(Optional.empty(), get.header("Content-Type"));
        assertEquals(Optional.empty(), get.header("Content-Length"));
        assertEquals(Optional.of("text/html"), get.header("Accept"));
        CrawlRequest kept = assertInstanceOf(RedirectPolicy.Follow.class, policy.decide(form, 307, Optional.of("http://ex.com/b"))).request();
        assertEquals(Optional.of("application/x-www-form-urlencoded"), kept.header("Content-Type"), "the body goes along, and its type");
    }
}
