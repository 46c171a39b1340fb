package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.ResultItem;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.middleware.MiddlewareContext;
import org.scrapycluster.crawler.middleware.ThreadNotingMiddleware;
import org.scrapycluster.crawler.pipeline.PipelineContext;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.robots.RobotName;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.DupefilterMemory;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.LeasedRequest;
import org.scrapycluster.crawler.scheduler.PrivateRedis;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.scrapycluster.crawler.spider.LinkRules;
import org.scrapycluster.crawler.spider.LinkSpider;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * One leased request through {@link RequestProcessor}, with a scripted {@link Fetcher}, a fixed clock, every step on
 * the calling thread and a private redis-server for the queues: what is published, what is filed again, that the
 * request's domain is always freed, and that a result the pipelines refuse stalls the node until one gets through.
 */
class RequestProcessorTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final FetchTimings NO_TIME = new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false);

    private final RedisConnection redis = PrivateRedis.connection();
    private final String spider = "processor" + System.nanoTime();
    private final String crawlid = "c" + System.nanoTime();
    private final Map<String, FetchResult> answers = new HashMap<>();
    private final List<String> fetched = new CopyOnWriteArrayList<>();
    private final List<String> finished = new CopyOnWriteArrayList<>();
    /** A permit for each request finished, so that a test waits for exactly that (Redis answers on Lettuce's thread). */
    private final Semaphore finishing = new Semaphore(0);
    /** What the fetcher throws for a URL instead of answering: a failure of the node's own code. */
    private final Map<String, Error> fetcherErrors = new HashMap<>();
    private final List<Throwable> fatal = new CopyOnWriteArrayList<>();
    private final RequestCodec codec = new RequestCodec();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

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
    void robotsTxtKeepsAForbiddenPageFromBeingFetched() {
        answer("http://example.com/robots.txt", 200, HeaderMap.empty(), "User-agent: *\nDisallow: /private\n", null);

        process(processor(Map.of("ROBOTSTXT_OBEY", "true")), CrawlRequest.get("http://example.com/private/x", meta(0, 0)));

        assertEquals(List.of("http://example.com/robots.txt"), fetched);
        assertEquals(List.of(), items());
        assertEquals(List.of("example.com"), finished);
    }

    @Test
    void aUrlThatCannotBeSplitIsRefusedByTheFetcherNotLeftToLoopThroughItsLease() {
        String url = "http://[::1/page";
        answer(url, 0, HeaderMap.empty(), "", FetchError.INVALID_REQUEST);

        process(processor(Map.of("ROBOTSTXT_OBEY", "true")), CrawlRequest.get(url, meta(0, 0)));

        assertEquals(List.of(url), fetched, "robots.txt has nothing to say about it: the fetcher refuses it, and the request ends");
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "invalid_request").counter().count());
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
    void aMiddlewareThatThrowsGivesTheRequestUpAndFreesItsDomain() {
        String lease = process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{throwing: 50}")), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), fetched, "nothing fetched");
        assertEquals(List.of(), items());
        assertEquals(List.of("example.com"), finished, "the domain is freed");
        assertFalse(held(lease), "acknowledged: a bug would fail the request again at every try");
    }

    @Test
    void aMiddlewareWhoseFutureFailsLeavesTheRequestToItsLease() {
        String lease = process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{unavailable: 50}")), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), fetched, "nothing fetched");
        assertEquals(List.of("example.com"), finished, "the domain is freed");
        assertTrue(held(lease), "its \"not now\": the request returns to its queue when the lease expires");
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "middleware").counter().count());
    }

    @Test
    void aSpiderThatThrowsAnErrorDropsThePageAndIsCountedLikeOneThatThrowsAnException() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>deep</p>", null);
        Spider recursing = new Spider() {
            @Override
            public String name() {
                return "recursing";
            }

            @Override
            public SpiderOutput parse(Page page) {
                throw new StackOverflowError();
            }
        };

        process(processor(Map.of(), recursing), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), items());
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "spider").counter().count(),
                "counted as a spider failure, and the page dropped rather than crawled again when its lease expires");
    }

    @Test
    void aMiddlewareThatFailsOnEveryRequestIsCountedEachTimeAndItsStackTraceWrittenOnce() {
        RequestProcessor processor = processor(Map.of("DOWNLOADER_MIDDLEWARES", "{throwing: 50}"));
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 3; page++) {
                process(processor, CrawlRequest.get("http://example.com/" + page, meta(0, 0)));
            }
        });

        assertEquals(3.0, registry.get("crawler.errors").tag("kind", "middleware").counter().count());
        List<ILoggingEvent> loud = logged.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertEquals(1, loud.size(), "one line for three failures of one kind: " + loud);
        assertEquals("java.lang.IllegalStateException", loud.getFirst().getThrowableProxy().getClassName(), "with the middleware's stack trace");
        assertTrue(loud.getFirst().getFormattedMessage().contains("throwing"), loud.getFirst().getFormattedMessage());
    }

    @Test
    void anItemPipelineThatThrowsOrReturnsNoFutureIsCountedEachTimeNamedAndItsStackTraceWrittenOnce() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor throwing = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Throwing.class.getName() + ": 200, kafka: null}"));
        RequestProcessor futureless = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Futureless.class.getName() + ": 200, kafka: null}"));
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 2; page++) {
                process(throwing, CrawlRequest.get("http://example.com/", meta(0, 0)));
                process(futureless, CrawlRequest.get("http://example.com/", meta(0, 0)));
            }
        });

        assertEquals(4.0, registry.get("crawler.errors").tag("kind", "pipeline").counter().count());
        List<ILoggingEvent> errors = logged.stream().filter(event -> event.getLevel() == Level.ERROR).toList();
        assertEquals(2, errors.size(), "one line for each kind of failure: " + errors);
        assertEquals("java.lang.IllegalStateException", errors.getFirst().getThrowableProxy().getClassName(), "with the stage's stack trace");
        assertTrue(errors.getFirst().getFormattedMessage().startsWith("The item pipeline throwing in process failed: "
                + "java.lang.IllegalStateException: a bug on http://example.com/; the request is given up"), errors.getFirst().getFormattedMessage());
        assertTrue(errors.getLast().getFormattedMessage().contains("the item pipeline futureless returned no future from process"),
                errors.getLast().getFormattedMessage());
        assertEquals(List.of(), items());
    }

    @Test
    void anItemPipelinesBugDropsTheItemGivesTheRequestUpAndDoesNotStallTheNode() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<a href='/next.html'>next</a>", null);
        RequestProcessor processor = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Throwing.class.getName() + ": 50, logging: null, kafka: null, captured: 100}"));

        String lease = process(processor, CrawlRequest.get("http://example.com/", meta(0, 1)));

        assertEquals(List.of(), items(), "the stages after it are not given the item");
        assertFalse(held(lease), "acknowledged, as Scrapy drops an item whose pipeline raises");
        assertEquals(0, publishingStalled(), "a bug says nothing of whether results can get through");
        assertEquals(1L, redis.sync().zcard(new QueueKey(spider, "example.com").key()), "the page's links are filed all the same");
    }

    @Test
    void aPipelineThatRunsOutOfMemoryEndsTheNodeWithoutStallingItsPublishing() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor processor = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.HeapExhausted.class.getName() + ": 50, kafka: null}"));

        String lease = process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(OutOfMemoryError.class), fatal.stream().map(Throwable::getClass).toList());
        assertTrue(held(lease), "not acknowledged: the request returns to its queue");
        assertEquals(0, publishingStalled(), "the node's memory says nothing of whether results can get through");
    }

    @Test
    void aMethodTheNodesJarLacksAbandonsTheLeaseAndIsToldAsAnErrorTheNodeCannotGoOnFrom() {
        NoSuchMethodError stale = new NoSuchMethodError("'void org.scrapycluster.Gone.method()'");
        fetcherErrors.put("http://example.com/", stale);

        String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(stale), fatal);
        assertTrue(held(lease), "not acknowledged: the request returns to its queue when its lease expires");
    }

    @Test
    void aStackOverflowInTheNodesOwnCodeLeavesTheRequestToItsLeaseAndTheNodeGoesOn() {
        fetcherErrors.put("http://example.com/", new StackOverflowError());
        try (CapturedLog log = CapturedLog.start(RequestProcessor.class, Level.WARN)) {
            String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

            assertEquals(List.of(), fatal, "one input's doing, perhaps: the node goes on");
            assertTrue(held(lease), "the request returns to its queue when its lease expires");
            assertTrue(log.events().stream().anyMatch(event -> event.getFormattedMessage().startsWith("Could not finish a request")),
                    log.events().toString());
        }
    }

    @Test
    void aPageThePipelinesCannotTakeNowReturnsToItsQueue() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        CapturingPipeline.REFUSED_CRAWLS.add(crawlid);
        try {
            String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

            assertTrue(held(lease), "the store's \"not now\": the request returns when its lease expires");
        } finally {
            CapturingPipeline.REFUSED_CRAWLS.remove(crawlid);
        }
    }

    @Test
    void aSpiderThatFailsOnEveryPageIsCountedEachTimeAndItsStackTraceWrittenOnce() {
        Spider failing = new Spider() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public SpiderOutput parse(Page page) {
                throw new IllegalStateException("a bug on " + page.url());
            }
        };
        RequestProcessor processor = processor(Map.of(), failing);
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 3; page++) {
                answer("http://example.com/" + page, 200, HeaderMap.of("Content-Type", "text/html"), "<p>page</p>", null);
                process(processor, CrawlRequest.get("http://example.com/" + page, meta(0, 0)));
            }
        });

        assertEquals(3.0, registry.get("crawler.errors").tag("kind", "spider").counter().count());
        List<ILoggingEvent> loud = logged.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertEquals(1, loud.size(), "one line for three failures of one kind: " + loud);
        assertEquals("java.lang.IllegalStateException", loud.getFirst().getThrowableProxy().getClassName(), "with the spider's stack trace");
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

    private CrawlRequest onlyQueued() throws MalformedQueueMemberException {
        List<CrawlRequest> queued = queued();
        assertEquals(1, queued.size(), queued.toString());
        return queued.get(0);
    }

    private Map<String, Object> meta(int curdepth, int maxdepth) {
        return Map.of("appid", "app", "crawlid", "unused", "spiderid", spider, "priority", 0, "curdepth", curdepth,
                "maxdepth", maxdepth, "expires", 0, "retry_times", 0);
    }

    private void answer(String url, int status, HeaderMap headers, String body, FetchError error) {
        answers.put(url, new FetchResult(url, status, status == 0 ? "" : "Status", headers, body.getBytes(StandardCharsets.UTF_8),
                error == null ? new DetectedEncoding("utf-8", StandardCharsets.UTF_8) : null, HeaderMap.empty(),
                null, error, error == null ? null : "scripted failure", NO_TIME));
    }

    private RequestProcessor processor(Map<String, String> set) {
        return processor(set, new LinkSpider());
    }

    private RequestProcessor processor(Map<String, String> set, Spider parser) {
        return processor(set, parser, Runnable::run);
    }

    private RequestProcessor processor(Map<String, String> set, Spider parser, Executor workers) {
        Map<String, String> all = new HashMap<>(Map.of("ITEM_PIPELINES", "{logging: null, kafka: null, captured: 100}",
                "ROBOTSTXT_OBEY", "false"));
        all.putAll(set);
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), all));
        CrawlerConfig config = CrawlerConfig.from(settings);
        CrawlerMetrics metrics = new CrawlerMetrics(registry, spider, "n1");
        Fetcher fetcher = request -> {
            fetched.add(request.url());
            Error error = fetcherErrors.get(request.url());
            if (error != null) {
                throw error;
            }
            FetchResult answer = answers.get(request.url());
            return CompletableFuture.completedFuture(answer != null ? answer : new FetchResult(request.url(), 404, "Not Found",
                    HeaderMap.empty(), new byte[0], null, HeaderMap.empty(), null, null, null, NO_TIME));
        };
        StatusCounters statusCounters = new StatusCounters(new StatsRecorder(redis, "n1", CLOCK, Duration.ofSeconds(1)), "host", spider,
                new CountedStatusCodes(false, List.of()), List.of());
        DomainThrottles throttles = new DomainThrottles(spider, new ThrottleKeyStyle(false, false), 60, 10, false, "ip", 1_000);
        DownloadChain chain = DownloadChain.open(DownloadChain.middlewares(settings), new MiddlewareContext(config.robotsObey(),
                new RobotsCache(fetcher, RobotName.of(null, "scrapy"), Duration.ofHours(1), Duration.ofMinutes(1), 100, 64L << 20, CLOCK), throttles, new ThrottledQueue(redis), new SchedulerInbox(), config.retry(),
                config.redirect(), config.backoff(), statusCounters, metrics, CLOCK), fetcher);
        RequestFiler filer = new RequestFiler(new Enqueuer(redis, false), new DupefilterMemory(0, config.filing().dupefilterTtl(), CLOCK), codec, spider, config.filing(),
                domain -> false, metrics, workers);
        Pipelines pipelines = Pipelines.open(new PipelineContext(settings, spider, metrics, new HealthRegistry(), CLOCK));
        LeaseKeeper leases = new LeaseKeeper(new Leases(redis), spider, Duration.ofMinutes(1), metrics, CLOCK);
        return new RequestProcessor(config, new RequestProcessor.Parts(codec, chain, parser, new LinkRules(List.of()), filer,
                pipelines, leases, statusCounters, metrics), workers, domain -> {
                    finished.add(domain);
                    finishing.release();
                },
                new ResultDelivery(new SchedulerInbox(), metrics, CLOCK), fatal::add);
    }

    /** Leases {@code request} in Redis as a hand-out would, processes it, and returns its lease id. */
    private String process(RequestProcessor processor, CrawlRequest request) {
        Map<String, Object> meta = new HashMap<>(request.meta());
        meta.put("crawlid", crawlid);
        String member = codec.encode(request.withMeta(meta));
        int finishedBefore = finished.size();
        String lease = "example.com|-1|lease-" + System.nanoTime();
        redis.sync().hset(Keyspace.leased(spider), lease, member);
        redis.sync().zadd(Keyspace.leases(spider), CLOCK.millis() + 60_000, lease);
        processor.process(new LeasedRequest(new QueueKey(spider, "example.com"), member, -1, lease,
                ThrottleSpec.of(spider + ":example.com", 60, 10, 1.0, false)));
        try {
            assertTrue(finishing.tryAcquire(30, TimeUnit.SECONDS), "the request was never finished");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertEquals(0, processor.active());
        assertEquals(finishedBefore + 1, finished.size(), "the domain is freed once: " + finished);
        return lease;
    }

    /** Whether {@code lease} is still held: abandoned (its request returns when it expires) rather than acknowledged. */
    private boolean held(String lease) {
        return redis.sync().hexists(Keyspace.leased(spider), lease);
    }

    private double publishingStalled() {
        return registry.get("crawler.publishing.stalled").gauge().value();
    }

    private List<ResultItem> items() {
        return CapturingPipeline.ITEMS.stream().filter(item -> crawlid.equals(item.crawlid())).toList();
    }

    private ResultItem onlyItem() {
        List<ResultItem> items = items();
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }

    private List<CrawlRequest> queued() throws MalformedQueueMemberException {
        List<CrawlRequest> requests = new ArrayList<>();
        for (String member : redis.sync().zrange(new QueueKey(spider, "example.com").key(), 0, -1)) {
            requests.add(codec.decode(member));
        }
        return requests;
    }
}
