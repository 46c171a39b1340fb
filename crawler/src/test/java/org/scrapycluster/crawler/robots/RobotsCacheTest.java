package org.scrapycluster.crawler.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.crawler.fetch.AddressPolicy;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.FetcherConfig;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.scrapycluster.crawler.fetch.NetworkRange;
import org.scrapycluster.embedded.junit.ManualClock;
import org.scrapycluster.embedded.origin.RobotsTxt;
import org.scrapycluster.embedded.origin.TestOrigin;

import crawlercommons.robots.BaseRobotRules;

/**
 * robots.txt rules by host, with time driven by hand and the fetcher played by a map of answers (or, for what
 * the fetcher itself does, the crawler's own against a real server on a loopback address).
 */
class RobotsCacheTest {

    private static final Duration TTL = Duration.ofHours(1);
    private static final Duration RETRY = Duration.ofMinutes(1);
    private static final long KIB = 1024;
    /** Files read and parsed on the thread that fetched them, so that the scripted fetcher's answers come at once. */
    private static final Executor READ_HERE = Runnable::run;

    private final ManualClock clock = new ManualClock();
    private final ScriptedFetcher fetcher = new ScriptedFetcher();

    private RobotsCache cache(long maxHosts) {
        return new RobotsCache(fetcher, RobotName.of(null, "scrapy"), TTL, RETRY, maxHosts, maxHosts * KIB,
                new LocalServerErrorRows(clock, RETRY), clock, READ_HERE);
    }

    /** A cache of up to 100 hosts' files for {@code robotName}, fetched by {@code fetcher}. */
    private RobotsCache cache(Fetcher fetcher, RobotName robotName) {
        return new RobotsCache(fetcher, robotName, TTL, RETRY, 100, 64 * 1024 * KIB, new LocalServerErrorRows(clock, RETRY), clock,
                READ_HERE);
    }

    private static BaseRobotRules rules(CompletableFuture<BaseRobotRules> future) {
        assertTrue(future.isDone(), "the scripted fetcher answers at once");
        return future.join();
    }

    @Test
    void aHostsRulesAreFetchedOnceAndKeptForTheirTime() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private\n");
        RobotsCache robots = cache(100);

        assertFalse(rules(robots.rulesFor("http://a.test/private/x")).isAllowed("http://a.test/private/x"));
        assertTrue(rules(robots.rulesFor("http://A.test/public")).isAllowed("http://a.test/public"));
        clock.advance(TTL.minusSeconds(1));
        rules(robots.rulesFor("http://a.test/other"));
        assertEquals(1, fetcher.asked("http://a.test/robots.txt"), "one fetch while the rules are fresh");

        clock.advance(Duration.ofSeconds(2));
        rules(robots.rulesFor("http://a.test/other"));
        assertEquals(2, fetcher.asked("http://a.test/robots.txt"), "fetched again once they expired");
    }

    @Test
    void schemeHostAndPortAreOneOriginEach() {
        fetcher.answer("http://a.test/robots.txt", 404, "");
        fetcher.answer("http://a.test:8080/robots.txt", 404, "");
        fetcher.answer("https://a.test/robots.txt", 404, "");
        RobotsCache robots = cache(100);

        for (String url : List.of("http://a.test/", "http://a.test:8080/", "https://a.test/", "http://a.test/x")) {
            rules(robots.rulesFor(url));
        }

        assertEquals(List.of("http://a.test/robots.txt", "http://a.test:8080/robots.txt", "https://a.test/robots.txt"),
                fetcher.requests);
    }

    @Test
    void userInfoAndTheSchemesOwnPortNameNoOtherOrigin() {
        fetcher.answer("http://a.test/robots.txt", 404, "");
        fetcher.answer("https://[::1]/robots.txt", 404, "");
        RobotsCache robots = cache(100);

        for (String url : List.of("http://u1@a.test/", "http://u2:secret@A.test/x", "http://a.test:80/", "https://[::1]:443/")) {
            rules(robots.rulesFor(url));
        }

        assertEquals(List.of("http://a.test/robots.txt", "https://[::1]/robots.txt"), fetcher.requests,
                "one fetch for the server, and no credentials sent or logged with it");
    }

    @Test
    void everySpellingOfAnInternationalisedHostIsOneOrigin() {
        fetcher.answer("http://xn--mnchen-3ya.de/robots.txt", 200, "User-agent: *\nDisallow: /privat\n");
        RobotsCache robots = cache(100);

        for (String host : List.of("münchen.de", "xn--mnchen-3ya.de", "MÜNCHEN.de", "mu\u0308nchen.de", "ｍünchen.de")) {
            assertFalse(rules(robots.rulesFor("http://" + host + "/privat")).isAllowed("http://" + host + "/privat"), host);
        }

        assertEquals(List.of("http://xn--mnchen-3ya.de/robots.txt"), fetcher.requests, "one server, one file, fetched by its ASCII name");
    }

    @Test
    void aMissingFileAllowsEverythingForTheWholeTime() {
        fetcher.answer("http://a.test/robots.txt", 404, "");
        RobotsCache robots = cache(100);

        assertTrue(rules(robots.rulesFor("http://a.test/x")).isAllowed("http://a.test/x"));
        clock.advance(TTL.minusSeconds(1));
        rules(robots.rulesFor("http://a.test/x"));

        assertEquals(1, fetcher.asked("http://a.test/robots.txt"));
    }

    @Test
    void aServerErrorDefersTheHostAndAnUnreachableServerAllowsItForTheRetryTimeThenTheFileIsAskedAgain() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        fetcher.fail("http://b.test/robots.txt", FetchError.CONNECT_REFUSED);
        fetcher.answer("http://c.test/robots.txt", 429, "");
        RobotsCache robots = cache(100);
        Instant askAgain = clock.instant().plus(RETRY);

        for (String host : List.of("a", "c")) {
            String url = "http://" + host + ".test/x";
            BaseRobotRules rules = rules(robots.rulesFor(url));
            assertEquals(Optional.of(askAgain), RobotsCache.deferredUntil(rules), host);
            assertFalse(rules.isAllowed(url), "a server error: nothing until the file is read (RFC 9309)");
        }
        BaseRobotRules unavailable = rules(robots.rulesFor("http://b.test/x"));
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(unavailable));
        assertTrue(unavailable.isAllowed("http://b.test/x"), "no answer at all: the page's own fetch will tell");
        clock.advance(RETRY.minusSeconds(1));
        assertEquals(Optional.of(askAgain), RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/y", "AcmeBot/2.0"))),
                "the same deadline for every request and robot until then");
        rules(robots.rulesFor("http://b.test/x"));
        rules(robots.rulesFor("http://c.test/x"));
        assertEquals(List.of("http://a.test/robots.txt", "http://c.test/robots.txt", "http://b.test/robots.txt"), fetcher.requests);

        clock.advance(Duration.ofSeconds(2));
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private\n");
        fetcher.answer("http://c.test/robots.txt", 200, "User-agent: *\nDisallow: /\n");
        BaseRobotRules back = rules(robots.rulesFor("http://a.test/x"));
        assertTrue(back.isAllowed("http://a.test/x"), "the file is back");
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(back));
        assertFalse(rules(robots.rulesFor("http://c.test/x")).isAllowed("http://c.test/x"), "a 429 is asked again, as a 503 is");
    }

    @Test
    void aHostsServerErrorsInARowDeferItUntilTheBoundThenAllowEverythingUntilTheFileIsRead() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        RobotsCache robots = cache(100);

        for (int error = 1; error < RobotsCache.SERVER_ERRORS_TO_GIVE_UP; error++) {
            Instant askAgain = clock.instant().plus(RETRY);
            assertEquals(Optional.of(askAgain), RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))), "error " + error);
            clock.advance(RETRY.minusSeconds(1));
            assertEquals(Optional.of(askAgain), RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/y"))),
                    "asked once per retry time, not once per request");
            clock.advance(Duration.ofSeconds(2));
        }
        fetcher.answer("http://b.test/robots.txt", 503, "");
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://b.test/x"))).isPresent(), "the errors are counted by host");
        assertEquals(RobotsCache.SERVER_ERRORS_TO_GIVE_UP - 1, fetcher.asked("http://a.test/robots.txt"));

        for (int after = 0; after < 2; after++) {
            BaseRobotRules givenUp = rules(robots.rulesFor("http://a.test/x"));
            assertEquals(Optional.empty(), RobotsCache.deferredUntil(givenUp), "the last error of the bound, and every one after");
            assertTrue(givenUp.isAllowed("http://a.test/x"), "everything allowed, as Scrapy would");
            clock.advance(RETRY.plusSeconds(1));
        }
        assertEquals(RobotsCache.SERVER_ERRORS_TO_GIVE_UP + 1, fetcher.asked("http://a.test/robots.txt"), "still asked once per retry time");

        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private\n");
        assertFalse(rules(robots.rulesFor("http://a.test/private")).isAllowed("http://a.test/private"), "the file, once read, is in force");
        clock.advance(TTL.plusSeconds(1));
        fetcher.answer("http://a.test/robots.txt", 503, "");
        BaseRobotRules lastRead = rules(robots.rulesFor("http://a.test/private"));
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(lastRead), "a file read before stays in force");
        assertFalse(lastRead.isAllowed("http://a.test/private"));
    }

    /**
     * With several nodes, the pause one sets holds the others' asks back: a node whose second error comes two retry times
     * after its first has waited as long as three errors would have taken it alone, and gives up too, rather than pause
     * the host once more after the other nodes gave up.
     */
    @Test
    void errorsInARowSpanningTwoRetryTimesGiveUpHoweverFewTheyAre() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        RobotsCache robots = cache(100);
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))).isPresent());
        clock.advance(RETRY.multipliedBy(2).minusSeconds(1));
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))).isPresent(), "a second error sooner waits");
        clock.advance(RETRY.plusSeconds(1));
        fetcher.answer("http://b.test/robots.txt", 503, "");
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://b.test/x"))).isPresent());
        clock.advance(RETRY.multipliedBy(2));

        BaseRobotRules givenUp = rules(robots.rulesFor("http://b.test/x"));
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(givenUp), "the second error, two retry times after the first");
        assertTrue(givenUp.isAllowed("http://b.test/x"));
        assertEquals(2, fetcher.asked("http://b.test/robots.txt"));
    }

    /**
     * The nodes count a host's errors together: a node that asks the file for the first time after another met two
     * errors meets the cluster's third and gives up, rather than start a row of its own and pause the host again.
     */
    @Test
    void theClustersThirdErrorGivesUpOnTheNodeThatMeetsIt() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        ServerErrorRows cluster = new LocalServerErrorRows(clock, RETRY);
        RobotsCache node1 = new RobotsCache(fetcher, RobotName.of(null, "scrapy"), TTL, RETRY, 100, 100 * KIB, cluster, clock, READ_HERE);
        RobotsCache node2 = new RobotsCache(fetcher, RobotName.of(null, "scrapy"), TTL, RETRY, 100, 100 * KIB, cluster, clock, READ_HERE);
        assertTrue(RobotsCache.deferredUntil(rules(node1.rulesFor("http://a.test/x"))).isPresent());
        clock.advance(RETRY.plusSeconds(1));
        assertTrue(RobotsCache.deferredUntil(rules(node1.rulesFor("http://a.test/x"))).isPresent(), "the second error waits");

        BaseRobotRules givenUp = rules(node2.rulesFor("http://a.test/x"));
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(givenUp), "the other node's first error is the cluster's third");
        assertTrue(givenUp.isAllowed("http://a.test/x"));
    }

    @Test
    void anErrorLongAfterTheLastStartsARowOfItsOwn() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        RobotsCache robots = cache(100);
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))).isPresent());
        clock.advance(RETRY.multipliedBy(RobotsCache.SERVER_ERRORS_TO_GIVE_UP).plusSeconds(1)); // nobody asked for the host

        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))).isPresent(), "the pages wait again");
        clock.advance(RETRY.plusSeconds(1));
        assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/x"))).isPresent(), "the new row's second error");
        assertEquals(3, fetcher.asked("http://a.test/robots.txt"));
    }

    @Test
    void aFetchWithoutAnswerStartsTheCountAgain() {
        fetcher.answer("http://a.test/robots.txt", 503, "");
        RobotsCache robots = cache(100);
        for (int error = 1; error < RobotsCache.SERVER_ERRORS_TO_GIVE_UP; error++) {
            rules(robots.rulesFor("http://a.test/"));
            clock.advance(RETRY.plusSeconds(1));
        }
        fetcher.fail("http://a.test/robots.txt", FetchError.CONNECT_REFUSED);
        assertTrue(rules(robots.rulesFor("http://a.test/")).isAllowed("http://a.test/"), "no answer: allowed meanwhile");
        clock.advance(RETRY.plusSeconds(1));

        fetcher.answer("http://a.test/robots.txt", 503, "");
        for (int error = 1; error < RobotsCache.SERVER_ERRORS_TO_GIVE_UP; error++) {
            assertTrue(RobotsCache.deferredUntil(rules(robots.rulesFor("http://a.test/"))).isPresent(), "error " + error + " after");
            clock.advance(RETRY.plusSeconds(1));
        }
    }

    @Test
    void aFileThatCannotBeReadAgainLeavesTheRulesLastReadInForce() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nCrawl-delay: 5\nDisallow: /private\n");
        RobotsCache robots = cache(100);
        assertFalse(rules(robots.rulesFor("http://a.test/")).isAllowed("http://a.test/private"));

        clock.advance(TTL.plusSeconds(1));
        fetcher.answer("http://a.test/robots.txt", 503, "");
        BaseRobotRules whileDown = rules(robots.rulesFor("http://a.test/"));
        assertFalse(whileDown.isAllowed("http://a.test/private"), "a server error is no leave to crawl what the file forbade");
        assertEquals(5000, whileDown.getCrawlDelay());
        assertEquals(Optional.empty(), RobotsCache.deferredUntil(whileDown), "the rules last read stand, not the server's error");

        clock.advance(RETRY.plusSeconds(1));
        fetcher.answer("http://a.test/robots.txt", 404, "");
        assertTrue(rules(robots.rulesFor("http://a.test/")).isAllowed("http://a.test/private"), "a file removed forbids nothing");
        assertEquals(3, fetcher.asked("http://a.test/robots.txt"));
    }

    @Test
    void aLongCrawlDelayKeepsTheFilesRulesAndIsReportedWhole() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nCrawl-delay: 3600\nDisallow: /private\n");

        BaseRobotRules rules = rules(cache(100).rulesFor("http://a.test/"));

        assertTrue(rules.isAllowed("http://a.test/public"), "an hour between fetches forbids nothing");
        assertFalse(rules.isAllowed("http://a.test/private/x"));
        assertEquals(Duration.ofHours(1).toMillis(), rules.getCrawlDelay());
    }

    @Test
    void theRobotIsKnownByTheProductTokenOfTheNameItIsGiven() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\nDisallow: /mine\n");

        BaseRobotRules named = rules(cache(fetcher, RobotName.of(null, "MyBot/1.0 (+https://example.com/bot)"))
                .rulesFor("http://a.test/"));
        assertFalse(named.isAllowed("http://a.test/mine"), "its own group");
        assertTrue(named.isAllowed("http://a.test/private"));

        for (String unnamed : List.of("*", " ", "/1.0")) {
            BaseRobotRules wildcard = rules(cache(fetcher, RobotName.of(null, unnamed)).rulesFor("http://a.test/"));
            assertFalse(wildcard.isAllowed("http://a.test/private"), "'" + unnamed + "' is no name: the * group");
            assertTrue(wildcard.isAllowed("http://a.test/mine"));
        }
    }

    @Test
    void aRequestIsJudgedAsTheRobotItsUserAgentNamesFromTheOneFileFetched() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: *\nDisallow: /private\n\nUser-agent: AcmeBot\nDisallow: /acme\n");
        RobotsCache robots = cache(100);

        BaseRobotRules acme = rules(robots.rulesFor("http://a.test/", "AcmeBot/2.0"));
        assertFalse(acme.isAllowed("http://a.test/acme"), "AcmeBot's group");
        assertTrue(acme.isAllowed("http://a.test/private"));
        BaseRobotRules own = rules(robots.rulesFor("http://a.test/", null));
        assertFalse(own.isAllowed("http://a.test/private"), "no User-Agent of its own: the node's, scrapy, and the * group");
        assertTrue(own.isAllowed("http://a.test/acme"));
        assertSame(own, rules(robots.rulesFor("http://a.test/")), "the node's robot");

        assertSame(acme, rules(robots.rulesFor("http://a.test/x", "acmebot/3.1 (+https://acme.test)")), "parsed once for a robot");
        assertEquals(1, fetcher.asked("http://a.test/robots.txt"), "one fetch for every robot");
    }

    @Test
    void robotstxtUserAgentJudgesEveryRequestWhateverItSends() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: MyBot\nDisallow: /mine\n\nUser-agent: AcmeBot\nDisallow: /acme\n");
        RobotsCache robots = cache(fetcher, RobotName.of("MyBot", "Scrapy/1.5.0 (+https://scrapy.org)"));

        BaseRobotRules rules = rules(robots.rulesFor("http://a.test/", "AcmeBot/2.0"));

        assertFalse(rules.isAllowed("http://a.test/mine"));
        assertTrue(rules.isAllowed("http://a.test/acme"));
    }

    @Test
    void theRulesOfAFileFetchedAgainAreParsedAgainForEveryRobot() {
        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: AcmeBot\nDisallow: /old\n");
        RobotsCache robots = cache(100);
        assertFalse(rules(robots.rulesFor("http://a.test/", "AcmeBot/2.0")).isAllowed("http://a.test/old"));

        fetcher.answer("http://a.test/robots.txt", 200, "User-agent: AcmeBot\nDisallow: /new\n");
        clock.advance(TTL.plusSeconds(1));
        BaseRobotRules rules = rules(robots.rulesFor("http://a.test/", "AcmeBot/2.0"));

        assertTrue(rules.isAllowed("http://a.test/old"), "not the rules of the file it replaced");
        assertFalse(rules.isAllowed("http://a.test/new"));
        assertEquals(2, fetcher.asked("http://a.test/robots.txt"));
    }

    @Test
    void aFileInLatin1IsReadAsLatin1AndOneInUtf16OrWithAByteOrderMarkAsItSays() {
        fetcher.answer("http://latin1.test/robots.txt", 200,
                "User-agent: *\nDisallow: /caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        fetcher.answer("http://bom.test/robots.txt", 200, "\uFEFFUser-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_8));
        fetcher.answer("http://utf16.test/robots.txt", 200,
                "\uFEFFUser-agent: *\nDisallow: /private\n".getBytes(StandardCharsets.UTF_16LE));
        RobotsCache robots = cache(100);

        BaseRobotRules latin1 = rules(robots.rulesFor("http://latin1.test/"));
        assertFalse(latin1.isAllowed("http://latin1.test/caf%C3%A9"), "/café, as a link to it is escaped");
        assertTrue(latin1.isAllowed("http://latin1.test/cafe"));
        assertFalse(rules(robots.rulesFor("http://bom.test/")).isAllowed("http://bom.test/private"));
        assertFalse(rules(robots.rulesFor("http://utf16.test/")).isAllowed("http://utf16.test/private"));
    }

    /** Whatever ends its lines: a file that ends them with CR alone too. */
    @ParameterizedTest
    @ValueSource(strings = {"\n", "\r", "\r\n"})
    void aStrayLatin1ByteLeavesTheOtherLinesUtf8(String lineBreak) {
        byte[] comment = ("# caf\u00e9" + lineBreak).getBytes(StandardCharsets.ISO_8859_1);
        byte[] rules = ("User-agent: *" + lineBreak + "Disallow: /gr\u00f6\u00dfe/" + lineBreak).getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[comment.length + rules.length];
        System.arraycopy(comment, 0, file, 0, comment.length);
        System.arraycopy(rules, 0, file, comment.length, rules.length);
        fetcher.answer("http://mixed.test/robots.txt", 200, file);

        BaseRobotRules mixed = rules(cache(100).rulesFor("http://mixed.test/"));

        assertFalse(mixed.isAllowed("http://mixed.test/gr%C3%B6%C3%9Fe/x"), "/größe/, as written in UTF-8");
    }

    /**
     * A robots.txt served as an HTML page is read without its tags, as crawler-commons reads it, but in one pass: a line of
     * many {@code <} and no {@code >} took crawler-commons the square of its length.
     */
    @Test
    void aFileServedAsHtmlIsReadWithoutItsTags() {
        fetcher.answer("http://html.test/robots.txt", 200, "<html><body><pre>User-agent: *\nDisallow: /<b>private</b>\n"
                + "<".repeat(200_000) + "\n</pre></body></html>\n");

        fetcher.answer("http://across.test/robots.txt", 200, "<html\n>\n<p>User-agent: *</p>\n<p>Crawl-delay: 99999999999</p>\n"
                + "Disallow: /private\n" + "<".repeat(200_000) + "\n");

        RobotsCache robots = cache(100);
        BaseRobotRules html = rules(robots.rulesFor("http://html.test/"));
        BaseRobotRules across = rules(robots.rulesFor("http://across.test/"));

        assertFalse(html.isAllowed("http://html.test/private/x"));
        assertTrue(html.isAllowed("http://html.test/public"));
        assertFalse(across.isAllowed("http://across.test/private/x"), "a tag across a line break: read once, and in one pass");
        assertEquals(86_400_000L, across.getCrawlDelay(), "a delay too long for crawler-commons, read once the tags are gone");
    }

    @Test
    void aFetchThatCouldNotConnectToTheHostIsKeptWithItsRulesUntilTheFileIsAskedAgain() {
        fetcher.fail("http://a.test/robots.txt", FetchError.CONNECT_TIMEOUT);
        fetcher.fail("http://b.test/robots.txt", FetchError.READ_TIMEOUT);
        fetcher.redirect("http://c.test/robots.txt", "http://elsewhere.test/robots.txt");
        fetcher.fail("http://elsewhere.test/robots.txt", FetchError.CONNECT_REFUSED);
        RobotsCache robots = cache(100);

        BaseRobotRules unconnected = rules(robots.rulesFor("http://a.test/x"));
        assertTrue(unconnected.isAllowed("http://a.test/x"));
        assertEquals(FetchError.CONNECT_TIMEOUT, RobotsCache.unconnected(unconnected).orElseThrow().error());
        assertEquals(Optional.empty(), RobotsCache.unconnected(rules(robots.rulesFor("http://b.test/x"))),
                "connected, then no answer: a path of the host, not the host, may be what hangs");
        assertEquals(Optional.empty(), RobotsCache.unconnected(rules(robots.rulesFor("http://c.test/x"))),
                "the host its file redirects to is not the page's");

        clock.advance(RETRY.plusSeconds(1));
        fetcher.answer("http://a.test/robots.txt", 404, "");
        BaseRobotRules back = rules(robots.rulesFor("http://a.test/x"));
        assertEquals(Optional.empty(), RobotsCache.unconnected(back));
        assertFalse(RobotsCache.unavailable(back));
    }

    @Test
    void redirectsAreFollowedUpToFive() {
        fetcher.redirect("http://a.test/robots.txt", "http://www.a.test/robots.txt");
        fetcher.answer("http://www.a.test/robots.txt", 200, "User-agent: scrapy\nDisallow: /cart\n");
        for (int i = 0; i < 6; i++) {
            fetcher.redirect("http://loop.test/robots" + (i == 0 ? "" : i) + ".txt", "http://loop.test/robots" + (i + 1) + ".txt");
        }
        RobotsCache robots = cache(100);

        assertFalse(rules(robots.rulesFor("http://a.test/cart")).isAllowed("http://a.test/cart"));
        assertTrue(rules(robots.rulesFor("http://loop.test/x")).isAllowed("http://loop.test/x"), "too many redirects: unavailable");
        assertEquals(6, fetcher.requests.stream().filter(url -> url.startsWith("http://loop.test/")).count());
    }

    @Test
    void theFirst500KiBOfALargerFileAreReadWhateverTheDownloadSizeLimit() {
        String file = "User-agent: *\nDisallow: /private\n" + ("# " + "padding ".repeat(12) + "\n").repeat(6_000)
                + "Disallow: /past-500-kib\n";
        try (TestOrigin origin = TestOrigin.builder().domains(1)
                .route(RobotsTxt.PATH, exchange -> exchange.sendText(200, "text/plain", file)).start();
                HttpFetcher small = new HttpFetcher(FetcherConfig.builder().maxBodyBytes(256 * 1024).build())) {
            RobotsCache robots = cache(small, RobotName.of(null, "scrapy"));

            BaseRobotRules rules = robots.rulesFor(origin.url(0, "/")).orTimeout(60, TimeUnit.SECONDS).join();
            assertFalse(rules.isAllowed(origin.url(0, "/private")), "a file past DOWNLOAD_MAXSIZE is read all the same");
            assertTrue(rules.isAllowed(origin.url(0, "/past-500-kib")), "what follows the first 500 KiB is ignored");

            clock.advance(RETRY.plusSeconds(1));
            robots.rulesFor(origin.url(0, "/")).orTimeout(60, TimeUnit.SECONDS).join();
            assertEquals(1, origin.requests().forPath(RobotsTxt.PATH).size(), "kept for the cache time, not asked again");
        }
    }

    @Test
    void aFileCutThroughACharacterIsStillReadAsUtf8() {
        byte[] head = "User-agent: *\nDisallow: /caf\u00e9\n".getBytes(StandardCharsets.UTF_8);
        String padding = "#" + "x".repeat(500 * 1024 - head.length - 4) + "\n"; // then '#', and 'é' across the 500 KiB mark
        String file = new String(head, StandardCharsets.UTF_8) + padding + "#\u00e9 is cut in two at 500 KiB\n";
        try (TestOrigin origin = TestOrigin.builder().domains(1)
                .route(RobotsTxt.PATH, exchange -> exchange.sendText(200, "text/plain", file)).start();
                HttpFetcher fetcher = new HttpFetcher(FetcherConfig.builder().build())) {
            BaseRobotRules rules = cache(fetcher, RobotName.of(null, "scrapy")).rulesFor(origin.url(0, "/"))
                    .orTimeout(60, TimeUnit.SECONDS).join();
            assertFalse(rules.isAllowed(origin.url(0, "/caf%C3%A9")), "/café: the file is UTF-8, not cp1252");
        }
    }

    @Test
    void aRobotsTxtRedirectedToARefusedAddressIsUnavailableSoThePublicHostIsCrawled() {
        try (TestOrigin origin = TestOrigin.builder().domains(2).route(RobotsTxt.PATH, exchange -> {
            if (exchange.domainIndex() == 0) {
                exchange.sendText(301, "text/plain", "moved", "Location", exchange.baseUrl(1) + RobotsTxt.PATH);
            } else {
                RobotsTxt.disallow("/").serve(exchange);
            }
        }).start();
                HttpFetcher guarded = new HttpFetcher(FetcherConfig.builder()
                        .addressPolicy(AddressPolicy.publicOnly(List.of(NetworkRange.parse(origin.host(0))))).build())) {
            RobotsCache robots = cache(guarded, RobotName.of(null, "scrapy"));
            String page = origin.url(0, "/page");

            assertTrue(robots.rulesFor(page).orTimeout(60, TimeUnit.SECONDS).join().isAllowed(page),
                    "domain 0 stands for a public host; the hop to internal domain 1 is refused: no rules");
            assertEquals(List.of(), origin.requests().forDomain(1), "the internal address was never reached");
            clock.advance(RETRY.plusSeconds(1));
            robots.rulesFor(page).orTimeout(60, TimeUnit.SECONDS).join();
            assertEquals(2, origin.requests().forPath(RobotsTxt.PATH).size(), "unavailable: asked again after a minute");
        }
    }

    @Test
    void aFetchedFileIsParsedOnTheReadingThreadsNotOnTheFetchersOwn() throws Exception {
        CompletableFuture<FetchResult> answer = new CompletableFuture<>();
        ExecutorService reading = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("robots-reading").factory());
        try {
            RobotsCache robots = new RobotsCache(request -> answer, RobotName.of(null, "scrapy"), TTL, RETRY, 100, 64 * 1024 * KIB,
                    new LocalServerErrorRows(clock, RETRY), clock, reading);
            CompletableFuture<String> givenOn = robots.rulesFor("http://a.test/").thenApply(rules -> Thread.currentThread().getName());
            Thread.ofPlatform().name("fetcher-event-loop").start(() -> answer.complete(ScriptedFetcher.result("http://a.test/robots.txt",
                    200, HeaderMap.of("Content-Type", "text/plain"), "User-agent: *\nDisallow: /\n".getBytes(StandardCharsets.UTF_8),
                    null, null))).join();

            assertEquals("robots-reading", givenOn.get(10, TimeUnit.SECONDS));
        } finally {
            reading.shutdownNow();
        }
    }

    @Test
    void aUrlWithoutAHostIsAllowedWithoutAFetch() {
        RobotsCache robots = cache(100);

        assertTrue(rules(robots.rulesFor("not a url")).isAllowed("not a url"));
        assertEquals(List.of(), fetcher.requests);
    }

    @Test
    void theHostsKeptAreBounded() {
        RobotsCache robots = cache(2);
        for (int i = 0; i < 50; i++) {
            fetcher.answer("http://h" + i + ".test/robots.txt", 404, "");
            rules(robots.rulesFor("http://h" + i + ".test/"));
        }
        robots.hosts().synchronous().cleanUp();

        assertTrue(robots.hosts().synchronous().estimatedSize() <= 2, "kept " + robots.hosts().synchronous().estimatedSize());
    }

    @Test
    void theBytesKeptAreBoundedToo() {
        RobotsCache robots = new RobotsCache(fetcher, RobotName.of(null, "scrapy"), TTL, RETRY, 100, 100 * KIB,
                new LocalServerErrorRows(clock, RETRY), clock, READ_HERE);
        String large = "User-agent: *\n" + "Disallow: /private/\n".repeat(3_000); // 60 KiB
        for (int i = 0; i < 10; i++) {
            fetcher.answer("http://h" + i + ".test/robots.txt", 200, large);
            rules(robots.rulesFor("http://h" + i + ".test/"));
        }
        robots.hosts().synchronous().cleanUp();
        robots.lastRead().cleanUp();
        robots.rules().cleanUp();

        assertTrue(robots.hosts().synchronous().estimatedSize() <= 1, "kept " + robots.hosts().synchronous().estimatedSize());
        assertTrue(robots.lastRead().estimatedSize() <= 1, "kept " + robots.lastRead().estimatedSize());
        assertTrue(robots.rules().estimatedSize() <= 1, "the rules parsed hold their files: kept " + robots.rules().estimatedSize());
    }

    /** Answers fetches from a script, at once, and remembers what was asked. */
    private static final class ScriptedFetcher implements Fetcher {

        private final Map<String, FetchResult> answers = new HashMap<>();
        final List<String> requests = new ArrayList<>();

        void answer(String url, int status, String body) {
            answer(url, status, body.getBytes(StandardCharsets.UTF_8));
        }

        void answer(String url, int status, byte[] body) {
            answers.put(url, result(url, status, HeaderMap.of("Content-Type", "text/plain"), body, null, null));
        }

        void redirect(String url, String location) {
            answers.put(url, new FetchResult(url, 301, "Moved", HeaderMap.of("Location", location), new byte[0], null,
                    HeaderMap.empty(), location, null, null, timings()));
        }

        void fail(String url, FetchError error) {
            answers.put(url, result(url, 0, HeaderMap.empty(), new byte[0], error, "scripted failure"));
        }

        int asked(String url) {
            return (int) requests.stream().filter(url::equals).count();
        }

        @Override
        public synchronized CompletableFuture<FetchResult> fetch(FetchRequest request) {
            requests.add(request.url());
            FetchResult answer = answers.get(request.url());
            return CompletableFuture.completedFuture(answer != null ? answer
                    : result(request.url(), 0, HeaderMap.empty(), new byte[0], FetchError.DNS, "not scripted"));
        }

        private static FetchResult result(String url, int status, HeaderMap headers, byte[] body, FetchError error, String message) {
            return new FetchResult(url, status, status == 0 ? "" : "Status", headers, body, null, HeaderMap.empty(), null, error,
                    message, timings());
        }

        private static FetchTimings timings() {
            return new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false);
        }
    }
}
