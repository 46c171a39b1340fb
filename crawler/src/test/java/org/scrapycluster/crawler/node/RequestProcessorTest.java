package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.ResultItem;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.middleware.ThreadNotingMiddleware;
import org.scrapycluster.crawler.pipeline.DroppingPipeline;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.spider.LinkSpider;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/**
 * One leased request through {@link RequestProcessor}: what is published, what is filed again (links, retries,
 * redirects, meta refreshes, with their referers), that the request's domain is always freed, and that a result the
 * pipelines refuse stalls the node until one gets through. How it meets failing extensions and failures of its own
 * code: {@link RequestProcessorFailuresTest}.
 */
class RequestProcessorTest extends ScriptedProcessing {

    @Test
    void aPageIsPublishedWithItsLinksAndTheLinksAreFiled() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"),
                "<a href='/one.html'>1</a><a href='/two.html'>2</a>", null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 1)));

        ResultItem item = onlyItem();
        assertEquals(200, item.statusCode());
        assertEquals(List.of("http://example.com/one.html", "http://example.com/two.html"), item.listedLinks().stream().map(PageLink::url).toList());
        assertEquals(2L, redis.sync().zcard(new QueueKey(spider, "example.com").key()));
        assertEquals(List.of("example.com"), finished);
    }

    @Test
    void aLinkLongerThanUrllengthLimitIsNotFiledAndIsCountedWhileThePageKeepsItInItsLinks() throws MalformedQueueMemberException {
        String longest = "http://example.com/" + "a".repeat(2083 - "http://example.com/".length());
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"),
                "<a href='" + longest + "'>2083</a><a href='" + longest + "b'>2084</a>", null);

        try (CapturedLog log = CapturedLog.start(UrlLengthLimit.class, Level.INFO)) {
            process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 1)));
            assertEquals(List.of("INFO Ignoring link (url length > 2083, URLLENGTH_LIMIT), said once per domain"), log.lines());
        }

        assertEquals(2, onlyItem().listedLinks().size(), "the item lists what the page links to");
        assertEquals(List.of(longest), queued().stream().map(CrawlRequest::url).toList());
        assertEquals(1.0, registry.get("crawler.requests.too_long").counter().count());
    }

    @Test
    void urllengthLimitZeroLimitsNothing() throws MalformedQueueMemberException {
        String url = "http://example.com/" + "a".repeat(5000);
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<a href='" + url + "'>long</a>", null);

        process(processor(Map.of("URLLENGTH_LIMIT", "0")), CrawlRequest.get("http://example.com/", meta(0, 1)));

        assertEquals(List.of(url), queued().stream().map(CrawlRequest::url).toList());
    }

    /** A page a stage of the node drops for good before Kafka (too large, unwritable) says nothing of whether Kafka is back. */
    @Test
    void aPageDroppedForGoodDoesNotEndAStall() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor processor = processor(Map.of("ITEM_PIPELINES",
                "{logging: null, kafka: null, captured: 100, " + DroppingPipeline.class.getName() + ": 50}"));
        CapturingPipeline.REFUSED_CRAWLS.add(crawlid);
        try {
            process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
        } finally {
            CapturingPipeline.REFUSED_CRAWLS.remove(crawlid);
        }
        assertEquals(1, publishingStalled());

        process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
        assertEquals(1, publishingStalled(), "still one request at a time");
    }

    @Test
    void aPageThePipelinesCannotTakeStallsTheNodeUntilOneIsPublished() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor processor = processor(Map.of());
        assertEquals(0, publishingStalled());

        CapturingPipeline.REFUSED_CRAWLS.add(crawlid);
        try {
            process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
            assertEquals(1, publishingStalled(), "the first page that cannot be published stalls the node");
            process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
            assertEquals(1, publishingStalled());
            assertEquals(List.of(), items());
        } finally {
            CapturingPipeline.REFUSED_CRAWLS.remove(crawlid);
        }

        process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
        assertEquals(0, publishingStalled(), "the first page published ends the stall");
        assertEquals(1, items().size());
        assertEquals(List.of("example.com", "example.com", "example.com"), finished);
    }

    @Test
    void aRetryStatusIsFiledAgainAndNotPublished() throws MalformedQueueMemberException {
        answer("http://example.com/busy", 500, HeaderMap.empty(), "", null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/busy", meta(0, 0)));

        assertEquals(List.of(), items());
        List<CrawlRequest> queued = queued();
        assertEquals(1, queued.size());
        assertEquals(1L, queued.get(0).number("retry_times", 0));
        assertEquals(List.of("example.com"), finished);
    }

    /**
     * A node that stalled longer than the lease (a long pause) finds the reaper has put the request back: it files no
     * retry of it, which would crawl the page a third time after another node's fetch.
     */
    @Test
    void aRetryOfARequestWhoseLeaseWasLostIsNotFiled() throws MalformedQueueMemberException {
        answer("http://example.com/busy", 500, HeaderMap.empty(), "", null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/busy", meta(0, 0)), false);

        assertEquals(List.of(), items());
        assertEquals(List.of(), queued());
        assertEquals(1, registry.get("crawler.leases").tag("event", "lost").counter().count());
        assertEquals(List.of("example.com"), finished);
    }

    @Test
    void withoutTheRetriesMiddlewareARetryStatusGoesToTheSpider() throws MalformedQueueMemberException {
        answer("http://example.com/busy", 500, HeaderMap.empty(), "", null);

        process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{retries: null}")), CrawlRequest.get("http://example.com/busy", meta(0, 0)));

        assertEquals(500, onlyItem().statusCode());
        assertEquals(List.of(), queued());
    }

    @Test
    void aNetworkFailureWithNoRetryLeftIsGivenUpAndTheDomainFreed() throws MalformedQueueMemberException {
        answer("http://example.com/down", 0, HeaderMap.empty(), "", FetchError.CONNECT_REFUSED);
        Map<String, Object> meta = new HashMap<>(meta(0, 0));
        meta.put("retry_times", 3);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/down", meta));

        assertEquals(List.of(), items());
        assertEquals(List.of(), queued());
        assertEquals(List.of("example.com"), finished);
    }

    @Test
    void aRequestWhoseFetchTimedOutOrFailedAfterHalfTheTimeoutTellsTheSchedulerSoWhetherItIsRetriedOrGivenUp() {
        answer("http://example.com/slow", 0, HeaderMap.empty(), "", FetchError.READ_TIMEOUT);
        Map<String, Object> lastTry = new HashMap<>(meta(0, 0));
        lastTry.put("retry_times", 3);
        RequestProcessor processor = processor(Map.of());

        process(processor, CrawlRequest.get("http://example.com/slow", meta(0, 0)));
        process(processor, CrawlRequest.get("http://example.com/slow", lastTry));
        answer("http://example.com/down", 0, HeaderMap.empty(), "", FetchError.CONNECT_REFUSED);
        process(processor, CrawlRequest.get("http://example.com/down", lastTry));
        process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));
        assertEquals(List.of("example.com", "example.com", "example.com", "example.com"), finished);
        assertEquals(List.of("example.com", "example.com"), finishedSlowly, "retried, then given up; a refusal or a 404 is not slow");

        // DOWNLOAD_TIMEOUT is 10 s: a DNS failure after 5 s with a slot is slow, one after 4.9 s or long in the queue is not
        failAfter("http://example.com/dns-slow", FetchError.DNS, Duration.ofSeconds(1), Duration.ofSeconds(6));
        failAfter("http://example.com/dns-quick", FetchError.DNS, Duration.ZERO, Duration.ofMillis(4_900));
        failAfter("http://example.com/dns-queued", FetchError.DNS, Duration.ofSeconds(30), Duration.ofSeconds(31));
        for (String path : List.of("dns-slow", "dns-quick", "dns-queued")) {
            process(processor, CrawlRequest.get("http://example.com/" + path, lastTry));
        }
        assertEquals(3, finishedSlowly.size(), finishedSlowly.toString());
    }

    @Test
    void aPageAnsweredOnlyAfterHalfTheTimeoutIsSlowToo() {
        RequestProcessor processor = processor(Map.of());
        // DOWNLOAD_TIMEOUT is 10 s: a server that takes 8 s a page is slow; one answered after 30 s in the queue is not
        answerAfter("http://example.com/struggling", "<html></html>", Duration.ZERO, Duration.ofSeconds(8));
        answerAfter("http://example.com/queued", "<html></html>", Duration.ofSeconds(30), Duration.ofSeconds(31));
        answerAfter("http://example.com/quick", "<html></html>", Duration.ZERO, Duration.ofMillis(4_900));
        for (String path : List.of("struggling", "queued", "quick")) {
            process(processor, CrawlRequest.get("http://example.com/" + path, meta(0, 0)));
        }

        assertEquals(3, items().size(), "each page published as any is");
        assertEquals(List.of("example.com"), finishedSlowly);
    }

    @Test
    void robotsTxtKeepsAForbiddenPageFromBeingFetched() {
        answer("http://example.com/robots.txt", 200, HeaderMap.empty(), "User-agent: *\nDisallow: /private\n", null);

        process(processor(Map.of("ROBOTSTXT_OBEY", "true")), CrawlRequest.get("http://example.com/private/x", meta(0, 0)));

        assertEquals(List.of("http://example.com/robots.txt"), fetched);
        assertEquals(List.of(), items());
        assertEquals(List.of("example.com"), finished);
    }

    @Test
    void aRequestWhoseRobotsTxtCannotBeReadReturnsToItsQueueAsItCameOutNotFiledAsANewOne() throws MalformedQueueMemberException {
        answer("http://example.com/robots.txt", 503, HeaderMap.empty(), "", null);
        Map<String, Object> seed = new HashMap<>(meta(0, 0));
        seed.put("domain_max_pages", 1);

        String lease = process(processor(Map.of("ROBOTSTXT_OBEY", "true")), CrawlRequest.get("http://example.com/", seed));

        assertEquals(List.of("http://example.com/robots.txt"), fetched, "untried");
        assertEquals(List.of(), queued(), "not filed anew, where it would count against the crawl's one page and skip the dupefilter");
        String member = redis.sync().hget(Keyspace.leased(spider), lease);
        assertTrue(held(lease), "its lease handed back, cut short for the reaper");
        Awaitility.await().until(() -> new Leases(redis).reap(spider, 10).returned() == 1);
        assertEquals(List.of(member), redis.sync().zrange(new QueueKey(spider, "example.com").key(), 0, -1),
                "the reaper returns it as it came out");
        assertEquals(-1.0, redis.sync().zscore(new QueueKey(spider, "example.com").key(), member), "at its own priority");
    }

    @Test
    void aUrlThatCannotBeSplitIsRefusedByTheFetcherNotLeftToLoopThroughItsLease() {
        String url = "http://[::1/page";
        answer(url, 0, HeaderMap.empty(), "", FetchError.INVALID_REQUEST);

        process(processor(Map.of("ROBOTSTXT_OBEY", "true")), CrawlRequest.get(url, meta(0, 0)));

        assertEquals(List.of(url), fetched, "robots.txt has nothing to say about it: the fetcher refuses it, and the request ends");
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "invalid_request").counter().count());
    }

    /** The fetch latency counts every attempt: a timeout's whole wait too, so that its quantiles see a domain that hangs. */
    @Test
    void aFetchThatTimesOutIsInTheFetchLatencyWithItsWholeWait() {
        failAfter("http://example.com/", FetchError.READ_TIMEOUT, Duration.ZERO, Duration.ofSeconds(10));

        process(processor(Map.of("RETRY_ENABLED", "false")), CrawlRequest.get("http://example.com/", meta(0, 0)));

        Timer latency = registry.get("crawler.fetch.latency").timer();
        assertEquals(1, latency.count());
        assertEquals(10.0, latency.totalTime(TimeUnit.SECONDS));
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "read_timeout").counter().count());
    }

    @Test
    void theRequestsOfAPageCarryItsUrlAsRefererUnlessItsPolicySaysOtherwise() throws MalformedQueueMemberException {
        answer("http://user:pw@example.com:80/page?q=1#top", 200, HeaderMap.of("Content-Type", "text/html"),
                "<a href='/one.html'>1</a>", null);
        process(processor(Map.of()), CrawlRequest.get("http://user:pw@example.com:80/page?q=1#top", meta(0, 1)));
        assertEquals(Optional.of("http://example.com/page?q=1"), onlyQueued().header("Referer"),
                "the page's URL without user info, default port and fragment");

        redis.sync().del(new QueueKey(spider, "example.com").key());
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html", "Referrer-Policy", "origin"),
                "<a href='/two.html'>2</a>", null);
        process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 1)));
        assertEquals(Optional.of("http://example.com/"), onlyQueued().header("Referer"), "the page's policy: its origin");

        redis.sync().del(new QueueKey(spider, "example.com").key());
        answer("http://example.com/three", 200, HeaderMap.of("Content-Type", "text/html"), "<a href='/three.html'>3</a>", null);
        process(processor(Map.of("REFERER_ENABLED", "false")), CrawlRequest.get("http://example.com/three", meta(0, 1)));
        assertEquals(Optional.empty(), onlyQueued().header("Referer"), "REFERER_ENABLED false");
    }

    @Test
    void aRedirectFromHttpsToHttpDropsTheReferer() throws MalformedQueueMemberException {
        answers.put("https://example.com/moved", new FetchResult("https://example.com/moved", 301, "Moved", HeaderMap.empty(),
                new byte[0], null, HeaderMap.empty(), "http://example.com/here", null, null, NO_TIME));

        process(processor(Map.of()), CrawlRequest.get("https://example.com/moved", meta(0, 0)).withHeader("Referer", "https://example.com/"));

        CrawlRequest redirected = onlyQueued();
        assertEquals("http://example.com/here", redirected.url());
        assertEquals(Optional.empty(), redirected.header("Referer"), "the default policy sends no https referrer to http");
    }

    @Test
    void aMetaRefreshIsFollowedAsARedirectAndThePageIsNotPublished() throws MalformedQueueMemberException {
        String page = "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/landing?a=1&amp;b=2\"></head><body>moved</body></html>";
        answer("http://example.com/old", 200, HeaderMap.of("Content-Type", "text/html; charset=utf-8"), page, null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/old", meta(0, 0)));

        CrawlRequest refreshed = onlyQueued();
        assertEquals("http://example.com/landing?a=1&b=2", refreshed.url());
        assertEquals(List.of("http://example.com/old"), refreshed.meta().get("redirect_urls"));
        assertEquals(List.of(), items(), "the page that refreshes is not published");
    }

    @Test
    void aMetaRefreshIsNotFollowedWhenItWaitsTooLongOrIsTurnedOff() throws MalformedQueueMemberException {
        answer("http://example.com/slow", 200, HeaderMap.of("Content-Type", "text/html"),
                "<meta http-equiv='refresh' content='100; url=/later'>", null);
        answer("http://example.com/off", 200, HeaderMap.of("Content-Type", "text/html"),
                "<meta http-equiv='refresh' content='0; url=/later'>", null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/slow", meta(0, 0)));
        process(processor(Map.of("METAREFRESH_ENABLED", "false")), CrawlRequest.get("http://example.com/off", meta(0, 0)));

        assertEquals(List.of(), queued());
        assertEquals(2, items().size(), "both pages are published as they are");
    }

    @Test
    void aPleaseWaitPageThatRefreshesItselfIsRetriedAfterThePauseItAsksFor() throws MalformedQueueMemberException {
        String refreshing = "<html><head><meta http-equiv='refresh' content='0; url=/landing'></head></html>";
        answer("http://example.com/busy", 503, HeaderMap.of("Content-Type", "text/html", "Retry-After", "30"), refreshing, null);

        process(processor(Map.of()), CrawlRequest.get("http://example.com/busy", meta(0, 0)));

        CrawlRequest retried = onlyQueued();
        assertEquals("http://example.com/busy", retried.url(), "the page is asked again, not the page it refreshes to");
        assertEquals(1, ((Number) retried.meta().get("retry_times")).intValue());
        assertTrue(redis.sync().pttl(Keyspace.THROTTLE_PAUSE.fill(spider + ":example.com")) > 0, "the domain pauses as the server asked");
    }

        @Test
    void theMiddlewaresRunOnTheWorkersNotOnTheThreadThatHandsRequestsOut() throws InterruptedException {
        ThreadNotingMiddleware.THREADS.clear();
        ExecutorService workers = Executors.newSingleThreadExecutor();
        try {
            process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{thread-noting: 50}"), new LinkSpider(), workers),
                    CrawlRequest.get("http://example.com/", meta(0, 0)));
        } finally {
            workers.shutdown();
            workers.awaitTermination(1, TimeUnit.MINUTES);
        }

        assertEquals(1, ThreadNotingMiddleware.THREADS.size());
        assertNotEquals(Thread.currentThread(), ThreadNotingMiddleware.THREADS.peek(),
                "a middleware that blocks would hold up the scheduler, which calls process");
    }
}
