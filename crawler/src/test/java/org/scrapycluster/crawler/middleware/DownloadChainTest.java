package org.scrapycluster.crawler.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.middleware.DownloadChain.MiddlewareFailure;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.robots.RobotName;
import org.scrapycluster.crawler.robots.LocalServerErrorRows;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.LeasedRequest;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The downloader middlewares of {@code DOWNLOADER_MIDDLEWARES} around a scripted fetcher, loaded as a node loads
 * them: the default order keeps robots.txt, cookies and redirects, and the setting removes, reorders and adds one.
 */
class DownloadChainTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final ScriptedFetcher fetcher = new ScriptedFetcher();
    private final ScriptedThrottle throttle = new ScriptedThrottle();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void aDomainWaitsForItsRobotsTxtOnlyWhileTheRobotsMiddlewareReadsIt() {
        DomainThrottles obeying = throttles();
        chain(Map.of(), obeying);
        assertTrue(obeying.awaitsRobots("a.test"), "one request in flight until a.test's robots.txt is read");

        DomainThrottles withoutRobots = throttles();
        chain(Map.of("DOWNLOADER_MIDDLEWARES", "{robots: null}"), withoutRobots);
        assertFalse(withoutRobots.awaitsRobots("a.test"), "nothing reads robots.txt, so nothing is waited for");
    }

    @Test
    void robotsTxtDropsAForbiddenRequestUntilRobotsIsRemoved() {
        fetcher.answer("http://a.test/robots.txt", 200, HeaderMap.empty(), "User-agent: *\nDisallow: /private\n");
        fetcher.answer("http://a.test/private/page", 200, HeaderMap.empty(), "<html></html>");

        DownloadChain.Passage refused = run(chain(Map.of()), CrawlRequest.get("http://a.test/private/page", Map.of()));
        assertInstanceOf(DownloadStep.Drop.class, refused.step());
        assertEquals(0, fetcher.asked("http://a.test/private/page"));
        assertEquals(1.0, meters.counter("crawler.robots.refused", "spider", "link", "node", "n1").count());

        DownloadChain.Passage fetched = run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{robots: null}")),
                CrawlRequest.get("http://a.test/private/page", Map.of()));
        assertInstanceOf(DownloadStep.Proceed.class, fetched.step());
        assertEquals(200, fetched.result().status());
        assertEquals(1, fetcher.asked("http://a.test/private/page"));
    }

    @Test
    void aRequestIsJudgedAsTheRobotItsUserAgentNamesAndTheThrottleKeepsTheNodesCrawlDelay() {
        fetcher.answer("http://a.test/robots.txt", 200, HeaderMap.empty(),
                "User-agent: *\nCrawl-delay: 2\nDisallow: /private\n\nUser-agent: AcmeBot\nCrawl-delay: 30\nDisallow: /acme\n");
        fetcher.answer("http://a.test/private/page", 200, HeaderMap.empty(), "<html></html>");
        DomainThrottles throttles = throttles();
        DownloadChain chain = chain(Map.of(), throttles);

        DownloadChain.Passage acme = run(chain, CrawlRequest.get("http://a.test/acme/page", Map.of()).withHeader("user-agent", "AcmeBot/2.0"));
        DownloadChain.Passage acmePrivate = run(chain,
                CrawlRequest.get("http://a.test/private/page", Map.of()).withHeader("User-Agent", "AcmeBot/2.0"));
        DownloadChain.Passage own = run(chain, CrawlRequest.get("http://a.test/private/page", Map.of()));

        assertInstanceOf(DownloadStep.Drop.class, acme.step(), "AcmeBot's group forbids /acme");
        assertInstanceOf(DownloadStep.Proceed.class, acmePrivate.step(), "and not /private, which * forbids");
        assertInstanceOf(DownloadStep.Drop.class, own.step(), "a request with no User-Agent of its own is the node's scrapy: the * group");
        assertEquals(1, fetcher.asked("http://a.test/robots.txt"));
        assertEquals(Duration.ofSeconds(2), throttles.crawlDelay("a.test"),
                "the domain's throttle, shared by every crawl, keeps the node's robot's delay whatever robot a request is");
    }

    /**
     * The throttle spaces hand-outs: a request that waited long for its host's robots.txt would reach the server next to
     * those handed out after it, so it is put back, untried, to be handed out again; one that waited a moment goes.
     */
    @Test
    void aRequestThatWaitedLongForItsRobotsTxtIsHandedOutAgainInsteadOfSentLate() {
        AtomicReference<Instant> now = new AtomicReference<>(CLOCK.instant());
        DomainThrottles throttles = throttles();
        DownloadChain chain = chain(Map.of(), throttles, now::get);
        fetcher.hold("http://a.test/robots.txt");
        fetcher.hold("http://b.test/robots.txt");
        CompletableFuture<DownloadChain.Passage> late = start(chain, CrawlRequest.get("http://a.test/page", Map.of()));
        CompletableFuture<DownloadChain.Passage> prompt = start(chain, CrawlRequest.get("http://b.test/page", Map.of()));

        now.set(now.get().plus(RobotsMiddleware.LONGEST_WAIT));
        fetcher.release("http://b.test/robots.txt", "User-agent: *\nDisallow: /private\n");
        assertInstanceOf(DownloadStep.Proceed.class, prompt.join().step(), "a wait of a second at most");
        now.set(now.get().plusMillis(1));
        fetcher.release("http://a.test/robots.txt", "User-agent: *\nCrawl-delay: 5\n");

        assertInstanceOf(DownloadStep.PutBack.class, late.join().step(), "returned to its queue as it came out, untried");
        assertEquals(0, fetcher.asked("http://a.test/page"), "not sent late");
        assertEquals(Duration.ofSeconds(5), throttles.crawlDelay("a.test"), "the delay is known when it is handed out again");
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of())).step(),
                "with the file read, it goes at once");
    }

    @Test
    void aRequestThatWaitedLongForARobotsTxtReadAgainInVainGoesUnderTheFileLastRead() {
        AtomicReference<Instant> now = new AtomicReference<>(CLOCK.instant());
        DownloadChain chain = chain(Map.of(), throttles(), now::get);
        fetcher.answer("http://a.test/robots.txt", 200, HeaderMap.empty(), "User-agent: *\nCrawl-delay: 5\nDisallow: /private\n");
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of())).step());

        now.set(now.get().plus(Duration.ofHours(2))); // the file's hour in the cache is over
        fetcher.hold("http://a.test/robots.txt");
        CompletableFuture<DownloadChain.Passage> waiting = start(chain, CrawlRequest.get("http://a.test/other", Map.of()));
        now.set(now.get().plusSeconds(10)); // DOWNLOAD_TIMEOUT
        fetcher.fail("http://a.test/robots.txt", FetchError.TOTAL_TIMEOUT);

        assertInstanceOf(DownloadStep.Proceed.class, waiting.join().step(),
                "the file last read decides, and put back it would wait as long at every hand-out a minute apart");
        assertInstanceOf(DownloadStep.Drop.class, run(chain, CrawlRequest.get("http://a.test/private", Map.of())).step(),
                "the file last read is in force");
    }

    @Test
    void aRequestThatWaitedLongForARobotsTxtThatCouldNotBeFetchedGoesRatherThanWaitingAsLongAtEveryHandOut() {
        AtomicReference<Instant> now = new AtomicReference<>(CLOCK.instant());
        DomainThrottles throttles = throttles();
        DownloadChain chain = chain(Map.of(), throttles, now::get);
        fetcher.hold("http://a.test/robots.txt");
        fetcher.answer("http://a.test/page", 200, HeaderMap.empty(), "<html></html>");
        CompletableFuture<DownloadChain.Passage> waiting = start(chain, CrawlRequest.get("http://a.test/page", Map.of()));

        now.set(now.get().plusSeconds(10)); // DOWNLOAD_TIMEOUT
        fetcher.fail("http://a.test/robots.txt", FetchError.TOTAL_TIMEOUT);

        assertInstanceOf(DownloadStep.Proceed.class, waiting.join().step(), "no Crawl-delay to wait for, and none next time");
        assertEquals(1, fetcher.asked("http://a.test/page"));
    }

    @Test
    void aRequestThatWaitedForARobotsTxtWhoseHostCouldNotBeConnectedToFailsWithThatUntried() {
        fetcher.hold("http://a.test/robots.txt");
        fetcher.answer("http://a.test/page", 200, HeaderMap.empty(), "<html></html>");
        // without retries, whose statistics this chain has no Redis for: the node's own handling of a failed fetch follows
        DownloadChain chain = chain(Map.of("DOWNLOADER_MIDDLEWARES", "{retries: null}"));
        CompletableFuture<DownloadChain.Passage> waiting = start(chain, CrawlRequest.get("http://a.test/page", Map.of()));
        fetcher.fail("http://a.test/robots.txt", FetchError.CONNECT_TIMEOUT);

        DownloadChain.Passage failed = waiting.join();
        assertEquals(0, fetcher.asked("http://a.test/page"), "the host took no connection a moment ago: no second timeout");
        assertInstanceOf(DownloadStep.Proceed.class, failed.step(), "every middleware after the fetch saw a failed download");
        assertEquals(FetchError.CONNECT_TIMEOUT, failed.result().error());
        assertEquals("http://a.test/page", failed.result().url());
        assertTrue(failed.result().errorMessage().contains("http://a.test/robots.txt"), failed.result().errorMessage());
    }

    @Test
    void aRequestThatFindsItsHostUnconnectedAlreadyIsFetched() {
        DownloadChain chain = chain(Map.of());
        fetcher.hold("http://a.test/robots.txt");
        start(chain, CrawlRequest.get("http://a.test/first", Map.of()));
        fetcher.fail("http://a.test/robots.txt", FetchError.CONNECT_REFUSED);
        fetcher.answer("http://a.test/page", 200, HeaderMap.empty(), "<html></html>");

        DownloadChain.Passage fetched = run(chain, CrawlRequest.get("http://a.test/page", Map.of()));
        assertInstanceOf(DownloadStep.Proceed.class, fetched.step(), "the host may be back: its own fetch tells");
        assertEquals(200, fetched.result().status());
    }

    /**
     * Each node reads a new domain's file before its first request of it, which the throttle spaced by what the node knew
     * before: a first request handed out within the file's Crawl-delay of the domain's hand-out before it (another
     * node's, which had read the file) is put back; one handed out later, or a later request, goes.
     */
    @Test
    void aNodesFirstRequestHandedOutWithinTheCrawlDelayOfTheOneBeforeIsHandedOutAgain() {
        twoHosts("User-agent: *\nCrawl-delay: 5\n", "User-agent: *\nCrawl-delay: 5\n");
        throttle.history = (spec, handedOut) -> CompletableFuture.completedFuture(Optional.of(handedOut.minus(
                spec.throttleKey().endsWith("a.test") ? Duration.ofMillis(300) : Duration.ofMillis(5001))));
        DownloadChain chain = chain(Map.of());

        assertInstanceOf(DownloadStep.PutBack.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of()), "a.test").step(),
                "0.3 s after another node's: returned to its queue as it came out, untried");
        assertEquals(0, fetcher.asked("http://a.test/page"));
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://b.test/page", Map.of()), "b.test").step(),
                "5.001 s after the one before");
        assertEquals(List.of("link:a.test", "link:b.test"), throttle.asked);
        assertEquals(Map.of("link:a.test", Duration.ofSeconds(10), "link:b.test", Duration.ofSeconds(10)), throttle.kept,
                "each domain's hand-outs kept two delays, for the next node's first request");

        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of()), "a.test").step(),
                "handed out again with the delay known, spaced by it");
        assertEquals(2, throttle.asked.size(), "only a node's first request of a domain is looked at");
    }

    @Test
    void aNodesFirstRequestGoesWhenItsDomainHasNoCrawlDelayOrRedisCannotSay() {
        twoHosts("User-agent: *\nDisallow: /private\n", "User-agent: *\nCrawl-delay: 5\n");
        throttle.history = (spec, handedOut) -> CompletableFuture.failedFuture(new IllegalStateException("Redis is down"));
        DownloadChain chain = chain(Map.of());

        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of()), "a.test").step());
        assertEquals(List.of(), throttle.asked, "no Crawl-delay, nothing to space it by");
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://b.test/page", Map.of()), "b.test").step(),
                "it was handed out under the throttle");
        assertEquals(1, throttle.asked.size());
    }

    /**
     * A request that waited for its host's file goes that much after its hand-out, from which the throttle spaces the
     * next: its domain is paused for its spacing from the fetch. One whose file was read, or of a domain without a
     * spacing, pauses nothing.
     */
    @Test
    void aRequestThatWaitedForItsRobotsTxtPausesItsDomainForItsSpacingFromItsFetch() {
        AtomicReference<Instant> now = new AtomicReference<>(CLOCK.instant());
        DownloadChain chain = chain(Map.of(), throttles(), now::get);
        fetcher.answer("http://a.test/page", 200, HeaderMap.empty(), "<html></html>");
        fetcher.answer("http://b.test/page", 200, HeaderMap.empty(), "<html></html>");
        fetcher.hold("http://a.test/robots.txt");
        fetcher.hold("http://b.test/robots.txt");
        CompletableFuture<DownloadChain.Passage> delayed = start(chain, CrawlRequest.get("http://a.test/page", Map.of()), "a.test");
        CompletableFuture<DownloadChain.Passage> free = start(chain, CrawlRequest.get("http://b.test/page", Map.of()), "b.test");

        now.set(now.get().plusMillis(300));
        fetcher.release("http://a.test/robots.txt", "User-agent: *\nCrawl-delay: 5\n");
        fetcher.release("http://b.test/robots.txt", "User-agent: *\nDisallow: /private\n");

        assertInstanceOf(DownloadStep.Proceed.class, delayed.join().step());
        assertEquals(1, fetcher.asked("http://a.test/page"));
        assertEquals(Map.of("link:a.test", Duration.ofSeconds(6)), throttle.paused,
                "a.test's spacing with its Crawl-delay (10 in 60 s, moderated), from the fetch; b.test, unmoderated, has none");
        assertInstanceOf(DownloadStep.Proceed.class, free.join().step());
        assertEquals(List.of("link:b.test"), throttle.countedFromFetch, "b.test's hand-out is counted in its window from its fetch");

        throttle.paused.clear();
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://a.test/page", Map.of()), "a.test").step());
        assertInstanceOf(DownloadStep.Proceed.class, run(chain, CrawlRequest.get("http://b.test/page", Map.of()), "b.test").step());
        assertEquals(Map.of(), throttle.paused, "the file read, the request goes at its hand-out");
        assertEquals(List.of("link:b.test"), throttle.countedFromFetch, "and counts from it");
    }

    /**
     * A window without spacing lets a burst go at its start: hand-outs made while this request waited for its robots.txt
     * may have gone out at once, and counted from its fetch the window is over its limit.
     */
    @Test
    void aRequestThatWaitedForItsRobotsTxtWhileItsWindowFilledIsPutBack() {
        AtomicReference<Instant> now = new AtomicReference<>(CLOCK.instant());
        DownloadChain chain = chain(Map.of(), throttles(), now::get);
        fetcher.answer("http://b.test/page", 200, HeaderMap.empty(), "<html></html>");
        fetcher.hold("http://b.test/robots.txt");
        CompletableFuture<DownloadChain.Passage> waiting = start(chain, CrawlRequest.get("http://b.test/page", Map.of()), "b.test");
        throttle.withinLimit = false;

        now.set(now.get().plusMillis(300));
        fetcher.release("http://b.test/robots.txt", "User-agent: *\nDisallow: /private\n");

        assertInstanceOf(DownloadStep.PutBack.class, waiting.join().step(), "returned to its queue as it came out, untried");
        assertEquals(0, fetcher.asked("http://b.test/page"));
    }

    @Test
    void aRedirectIsRescheduledUntilRedirectsIsRemoved() {
        fetcher.answer("http://a.test/old", 301, HeaderMap.of("Location", "http://a.test/new"), "");
        fetcher.location("http://a.test/old", "http://a.test/new");
        CrawlRequest old = CrawlRequest.get("http://a.test/old", Map.of("crawlid", "c1"));

        DownloadChain.Passage redirected = run(chain(Map.of()), old);
        DownloadStep.Reschedule reschedule = assertInstanceOf(DownloadStep.Reschedule.class, redirected.step());
        assertEquals("http://a.test/new", reschedule.request().url());
        assertEquals(1L, redirected.download().crawl().meta().get("redirect_times"));
        assertEquals("c1", redirected.download().crawl().crawlid());

        DownloadChain.Passage kept = run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{redirects: null}")), old);
        assertInstanceOf(DownloadStep.Proceed.class, kept.step());
        assertEquals(301, kept.result().status());
    }

    @Test
    void reorderingPutsAUsersMiddlewareBeforeOrAfterTheCookiesItSees() {
        fetcher.answer("http://a.test/", 200, HeaderMap.empty(), "");
        CrawlRequest withCookies = CrawlRequest.get("http://a.test/", Map.of()).withCookies(Map.of("session", "s1"));

        run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{tagging: 650}")), withCookies);
        assertEquals("none", fetcher.lastSent().headers().first("X-Tag"));
        assertEquals(List.of("session=s1"), fetcher.lastSent().headers().all("Cookie"));

        run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{tagging: 800}")), withCookies);
        assertEquals("session=s1", fetcher.lastSent().headers().first("X-Tag"));

        run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{cookies: null, tagging: 800}")), withCookies);
        assertEquals("none", fetcher.lastSent().headers().first("X-Tag"));
        assertEquals(List.of(), fetcher.lastSent().headers().all("Cookie"));
    }

    @Test
    void aUsersMiddlewareAddsItsHeaderAndIsRefusedAnUnknownName() {
        fetcher.answer("http://a.test/", 200, HeaderMap.empty(), "");
        run(chain(Map.of("DOWNLOADER_MIDDLEWARES", "{tagging: 50}")), CrawlRequest.get("http://a.test/", Map.of()));
        assertEquals("none", fetcher.lastSent().headers().first("X-Tag"));

        SettingsException refused = assertThrows(SettingsException.class, () -> chain(Map.of("DOWNLOADER_MIDDLEWARES", "{tally: 50}")));
        assertTrue(refused.getMessage().contains("there are: cookies, meta-refresh, redirects, retries, retry-after, robots, tagging, thread-noting, throwing, unavailable"),
                refused.getMessage());
    }

    @Test
    void aMiddlewareThatThrowsOrReturnsNoFutureFailsThePassageNamingItself() {
        DownloaderMiddleware futureless = new DownloaderMiddleware() {
            @Override
            public String name() {
                return "futureless";
            }

            @Override
            public CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
                return null;
            }
        };

        assertEquals("the downloader middleware throwing failed in beforeRequest: java.lang.IllegalStateException: a bug",
                failure(new DownloadChain(List.of(new ThrowingMiddleware()), fetcher)).getMessage());
        assertEquals("the downloader middleware futureless returned no future from afterResponse",
                failure(new DownloadChain(List.of(futureless), fetcher)).getMessage());
    }

    @Test
    void aMiddlewareWhoseFutureCompletesWithNoStepFailsThePassageNamingItself() {
        DownloaderMiddleware stepless = stepless();

        assertEquals("the downloader middleware stepless completed its future from beforeRequest with no step",
                failure(new DownloadChain(List.of(stepless), fetcher)).getMessage());
    }

    @Test
    void aMiddlewareThatHandsOnARequestOfItsOwnMakingFailsThePassageAsABugNamingItself() {
        DownloadRequest ownMaking = (DownloadRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DownloadRequest.class}, (proxy, method, arguments) -> "http://a.test/other");
        DownloaderMiddleware rewriting = beforeRequest("rewriting", request -> CompletableFuture.completedFuture(
                new DownloadStep.Reschedule(ownMaking, true)));

        MiddlewareFailure failure = (MiddlewareFailure) failure(new DownloadChain(List.of(rewriting), fetcher));
        assertTrue(failure.bug(), "given up, not left to come back from its queue and fail again");
        assertTrue(failure.getMessage().startsWith("the downloader middleware rewriting handed on a "), failure.getMessage());
        assertTrue(failure.getMessage().endsWith(" from beforeRequest; change the request it was given with its with… methods instead"),
                failure.getMessage());
        assertNotEquals(failure(new DownloadChain(List.of(stepless()), fetcher)).getStackTrace()[0], failure.getStackTrace()[0],
                "two bugs, two kinds of failure in the log, which tells kinds by where they were thrown");
    }

    @Test
    void aThrowOrANullIsABugAndAFailedFutureIsNot() {
        DownloaderMiddleware stepless = stepless();

        assertTrue(((MiddlewareFailure) failure(new DownloadChain(List.of(new ThrowingMiddleware()), fetcher))).bug(), "a throw");
        assertTrue(((MiddlewareFailure) failure(new DownloadChain(List.of(stepless), fetcher))).bug(), "no step");
        MiddlewareFailure notNow = (MiddlewareFailure) failure(new DownloadChain(List.of(new UnavailableMiddleware()), fetcher));
        assertFalse(notNow.bug(), "a future the middleware failed itself");
        assertEquals("the downloader middleware unavailable failed in beforeRequest: java.lang.IllegalStateException: the proxy pool is down",
                notNow.getMessage());
    }

    @Test
    void aMiddlewareWhoseJarLacksAClassFailsThePassageInsteadOfTheThreadThatStartedIt() {
        DownloaderMiddleware brokenJar = beforeRequest("broken-jar", request -> {
            throw new NoClassDefFoundError("com/example/Missing");
        });

        assertEquals("the downloader middleware broken-jar failed in beforeRequest: java.lang.NoClassDefFoundError: com/example/Missing",
                failure(new DownloadChain(List.of(brokenJar), fetcher)).getMessage());
    }

    @Test
    void aStepAfterOneAnsweredLaterRunsOnAWorkerNotOnTheThreadThatAnswered() throws Exception {
        fetcher.answer("http://a.test/", 200, HeaderMap.empty(), "");
        CompletableFuture<DownloadStep> answer = new CompletableFuture<>();
        AtomicReference<DownloadRequest> asked = new AtomicReference<>();
        DownloaderMiddleware answeringLater = beforeRequest("answering-later", request -> {
            asked.set(request);
            return answer; // as a step that asks Redis or a library does
        });
        ExecutorService workers = Executors.newSingleThreadExecutor(work -> new Thread(work, "worker"));
        try {
            ThreadNotingMiddleware.THREADS.clear();
            LeasedRequest lease = new LeasedRequest(new QueueKey("link", "a.test"), "member", -1, "lease-1",
                    ThrottleSpec.of("link:a.test", 60, 10, 1.0, false), CLOCK.instant());
            DownloadChain chain = new DownloadChain(List.of(answeringLater, new ThreadNotingMiddleware()), fetcher);
            CompletableFuture<DownloadChain.Passage> passage = chain.run(Download.of(lease, CrawlRequest.get("http://a.test/", Map.of())),
                    workers);
            Awaitility.await().until(() -> asked.get() != null);
            Thread library = new Thread(() -> answer.complete(new DownloadStep.Proceed(asked.get())), "library");
            library.start();
            library.join();

            assertInstanceOf(DownloadStep.Proceed.class, passage.get(10, TimeUnit.SECONDS).step());
            assertEquals(List.of("worker"), ThreadNotingMiddleware.THREADS.stream().map(Thread::getName).toList());
        } finally {
            workers.shutdownNow();
        }
    }

    /** A middleware whose {@code beforeRequest} completes its future with no step. */
    private static DownloaderMiddleware stepless() {
        return beforeRequest("stepless", request -> CompletableFuture.completedFuture(null));
    }

    /** A middleware named {@code name} whose {@code beforeRequest} is {@code step}. */
    private static DownloaderMiddleware beforeRequest(String name, Function<DownloadRequest, CompletableFuture<DownloadStep>> step) {
        return new DownloaderMiddleware() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
                return step.apply(request);
            }
        };
    }

    private static Throwable failure(DownloadChain chain) {
        LeasedRequest lease = new LeasedRequest(new QueueKey("link", "a.test"), "member", -1, "lease-1",
                ThrottleSpec.of("link:a.test", 60, 10, 1.0, false), CLOCK.instant());
        CompletableFuture<DownloadChain.Passage> passage = chain.run(Download.of(lease, CrawlRequest.get("http://a.test/", Map.of())),
                Runnable::run);
        assertTrue(passage.isCompletedExceptionally(), "the passage fails");
        return assertThrows(CompletionException.class, passage::join).getCause();
    }

    private DownloadChain chain(Map<String, String> set) {
        return chain(set, throttles());
    }

    private static DomainThrottles throttles() {
        return new DomainThrottles("link", new ThrottleKeyStyle(false, false), 60, 10, false, "ip", 1_000);
    }

    private DownloadChain chain(Map<String, String> set, DomainThrottles throttles) {
        return chain(set, throttles, CLOCK);
    }

    private DownloadChain chain(Map<String, String> set, DomainThrottles throttles, InstantSource clock) {
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), set));
        RobotsCache robots = new RobotsCache(fetcher, RobotName.of(null, "scrapy"), Duration.ofHours(1), Duration.ofMinutes(1), 100,
                64L << 20, new LocalServerErrorRows(clock, Duration.ofMinutes(1)), clock, Runnable::run);
        MiddlewareContext context = new MiddlewareContext(true, robots, throttles, throttle, new SchedulerInbox(),
                new RetryPolicy(true, 3, Set.of(500)), new RedirectPolicy(true, 20), new BackoffPolicy(false, Duration.ofSeconds(60), Duration.ofSeconds(600)), null,
                new CrawlerMetrics(meters, "link", "n1"), clock);
        return DownloadChain.open(DownloadChain.middlewares(settings), context, fetcher);
    }

    private static DownloadChain.Passage run(DownloadChain chain, CrawlRequest request) {
        return run(chain, request, "a.test");
    }

    private static DownloadChain.Passage run(DownloadChain chain, CrawlRequest request, String domain) {
        CompletableFuture<DownloadChain.Passage> passage = start(chain, request, domain);
        assertTrue(passage.isDone(), "the scripted fetcher answers at once and the steps run on the caller");
        return passage.join();
    }

    private static CompletableFuture<DownloadChain.Passage> start(DownloadChain chain, CrawlRequest request) {
        return start(chain, request, "a.test");
    }

    private static CompletableFuture<DownloadChain.Passage> start(DownloadChain chain, CrawlRequest request, String domain) {
        LeasedRequest lease = new LeasedRequest(new QueueKey("link", domain), "member", -1, "lease-1",
                ThrottleSpec.of("link:" + domain, 60, 10, 1.0, false), CLOCK.instant());
        return chain.run(Download.of(lease, request), Runnable::run);
    }

    /** a.test's and b.test's robots.txt, and a page of each at {@code /page}. */
    private void twoHosts(String aRobots, String bRobots) {
        fetcher.answer("http://a.test/robots.txt", 200, HeaderMap.empty(), aRobots);
        fetcher.answer("http://b.test/robots.txt", 200, HeaderMap.empty(), bRobots);
        fetcher.answer("http://a.test/page", 200, HeaderMap.empty(), "<html></html>");
        fetcher.answer("http://b.test/page", 200, HeaderMap.empty(), "<html></html>");
    }

    /** A cluster throttle whose hand-outs a test scripts, and which records the throttles read and the pauses asked for. */
    private static final class ScriptedThrottle implements ClusterThrottle {

        /** No hand-out before the one asked about, unless a test says otherwise. */
        BiFunction<ThrottleSpec, Instant, CompletableFuture<Optional<Instant>>> history =
                (spec, handedOut) -> CompletableFuture.completedFuture(Optional.empty());
        final List<String> asked = new ArrayList<>();
        final Map<String, Duration> kept = new HashMap<>();
        final Map<String, Duration> paused = new HashMap<>();
        final List<String> countedFromFetch = new ArrayList<>();
        /** Whether a hand-out counted from its fetch leaves its window within the limit. */
        boolean withinLimit = true;

        @Override
        public CompletableFuture<Boolean> countFromFetch(ThrottleSpec spec, Instant handedOut) {
            countedFromFetch.add(spec.throttleKey());
            return CompletableFuture.completedFuture(withinLimit);
        }

        @Override
        public CompletableFuture<Boolean> pause(ThrottleSpec spec, Duration pause) {
            paused.merge(spec.throttleKey(), pause, (old, longer) -> longer.compareTo(old) > 0 ? longer : old);
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Optional<Instant>> handOutBefore(ThrottleSpec spec, Instant handedOut, Duration keep) {
            asked.add(spec.throttleKey());
            kept.put(spec.throttleKey(), keep);
            return history.apply(spec, handedOut);
        }
    }

    /** A fetcher that answers from a map and records what it was sent. */
    private static final class ScriptedFetcher implements Fetcher {

        private static final FetchTimings NO_TIME = new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false);

        private final Map<String, FetchResult> answers = new HashMap<>();
        private final Map<String, CompletableFuture<FetchResult>> held = new HashMap<>();
        private final List<FetchRequest> sent = new ArrayList<>();

        void answer(String url, int status, HeaderMap headers, String body) {
            answers.put(url, ok(url, status, headers, body));
        }

        /** Keeps the answer to {@code url} back until {@link #release}. */
        synchronized void hold(String url) {
            held.put(url, new CompletableFuture<>());
        }

        /** Answers {@code url}, held back until now, with a 200 of {@code body}. */
        void release(String url, String body) {
            CompletableFuture<FetchResult> answer;
            synchronized (this) {
                answer = held.remove(url);
            }
            answer.complete(ok(url, 200, HeaderMap.empty(), body));
        }

        /** Fails {@code url}, held back until now, with {@code error}. */
        void fail(String url, FetchError error) {
            CompletableFuture<FetchResult> answer;
            synchronized (this) {
                answer = held.remove(url);
            }
            answer.complete(new FetchResult(url, 0, null, HeaderMap.empty(), new byte[0], null, HeaderMap.empty(), null, error,
                    "scripted " + error, NO_TIME));
        }

        private static FetchResult ok(String url, int status, HeaderMap headers, String body) {
            return new FetchResult(url, status, "Status", headers, body.getBytes(), null, HeaderMap.empty(), null, null, null, NO_TIME);
        }

        void location(String url, String target) {
            FetchResult answer = answers.get(url);
            answers.put(url, new FetchResult(url, answer.status(), answer.reason(), answer.headers(), answer.body(), null,
                    HeaderMap.empty(), target, null, null, answer.timings()));
        }

        int asked(String url) {
            return (int) sent.stream().filter(request -> request.url().equals(url)).count();
        }

        FetchRequest lastSent() {
            return sent.get(sent.size() - 1);
        }

        @Override
        public synchronized CompletableFuture<FetchResult> fetch(FetchRequest request) {
            sent.add(request);
            CompletableFuture<FetchResult> waiting = held.get(request.url());
            if (waiting != null) {
                return waiting;
            }
            FetchResult answer = answers.get(request.url());
            return CompletableFuture.completedFuture(answer != null ? answer : new FetchResult(request.url(), 404, "Not Found",
                    HeaderMap.empty(), new byte[0], null, HeaderMap.empty(), null, null, null, NO_TIME));
        }
    }
}
