package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.FlakyThenOk;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.RobotsTxt;
import org.scrapycluster.embedded.origin.TestOrigin;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A host whose server answers its robots.txt with an error (docs/differences.md): a crawler node fetches none of its
 * pages while the file may yet be read, as RFC 9309 asks, but puts every request back as it was and pauses the domain
 * until the file is asked again, once per {@code ROBOTSTXT_RETRY_SECONDS} however many requests wait; after
 * {@link RobotsCache#SERVER_ERRORS_TO_GIVE_UP} errors in a row it allows the host everything, as Scrapy would. Each page
 * fails as many times as a request may be retried, so that it is crawled only if waiting spent none of its retries. A
 * real node against a real server on loopback addresses; where Redis refuses the domain's pause, the node holds the
 * domain itself until the file is asked again.
 */
@ExtendWith(SharedStack.class)
class UnreachableRobotsTest {

    /** Its robots.txt answers 503 twice, then allows everything. */
    private static final int RECOVERING = 0;
    /** Its robots.txt always answers 500. */
    private static final int DOWN = 1;
    private static final int PAGES = 20;
    private static final int RETRY_TIMES = 1;

    private final EmbeddedStack stack;
    private final AtomicInteger recoveringAnswers = new AtomicInteger();
    private TestOrigin origin;
    private CrawlerTestBed bed;
    private PauseRefusingRedis refusingRedis;

    UnreachableRobotsTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void start() {
        origin = TestOrigin.builder().domains(2).route(FlakyThenOk.PATH, new FlakyThenOk()).route(RobotsTxt.PATH, exchange -> {
            if (exchange.domainIndex() == DOWN) {
                exchange.sendText(500, "text/plain", "down");
            } else if (recoveringAnswers.getAndIncrement() < 2) {
                exchange.sendText(503, "text/plain", "down for now");
            } else {
                RobotsTxt.allowAll().serve(exchange);
            }
        }).start();
    }

    @AfterEach
    void stop() throws IOException {
        if (bed != null) {
            bed.close();
        }
        if (refusingRedis != null) {
            refusingRedis.close();
        }
        origin.close();
    }

    @Test
    void pagesWaitUntilTheirHostsRobotsTxtIsReadWithTheirRetriesUntouched() {
        startNode(stack.redisPort());
        Set<String> pages = seed(RECOVERING, "robots-recovering");

        assertCrawled(pages, bed.awaitResults(PAGES));
        assertRobotsTxtAskedOnceASecondUntilRead();
    }

    @Test
    void aNodeWhosePauseRedisRefusesHoldsTheDomainItselfInsteadOfHandingItsPagesOutAgainAndAgain() throws IOException {
        refusingRedis = new PauseRefusingRedis(stack.redisPort());
        startNode(refusingRedis.port());
        Set<String> pages = seed(RECOVERING, "robots-pause-refused");

        assertCrawled(pages, bed.awaitResults(PAGES));
        assertRobotsTxtAskedOnceASecondUntilRead();
        assertEquals(2, refusingRedis.refused(), "one pause per robots.txt error, each refused: a request waiting for the"
                + " file is put back once, not handed out and put back until the file is asked again");
    }

    @Test
    void pagesWhoseRobotsTxtKeepsFailingAreCrawledAfterTheBoundWithTheirRetriesUntouched() {
        startNode(stack.redisPort());
        Set<String> pages = seed(DOWN, "robots-down");

        assertCrawled(pages, bed.awaitResults(PAGES));
        List<String> asked = paths(DOWN);
        assertEquals(RobotsCache.SERVER_ERRORS_TO_GIVE_UP, asked.indexOf(FlakyThenOk.PATH),
                "robots.txt asked once a second until it was given up on, then the pages: " + asked);
        assertEquals(1.0, bed.gauge("cache.size", "cache", "robots-domains"),
                "the domain is taken as read once its rules are given up on, so it is no longer held to one request in flight");
    }

    /** Starts a node on the Redis at {@code redisPort} of 127.0.0.1, robots.txt asked again a second after an error. */
    private void startNode(int redisPort) {
        bed = new CrawlerTestBed(stack, redisPort, stack.kafkaBootstrap()).set("ROBOTSTXT_RETRY_SECONDS", 1)
                .set("RETRY_TIMES", RETRY_TIMES);
        bed.startNode();
    }

    /** The recovering host's robots.txt asked thrice, once a second, and no page of it before the third. */
    private void assertRobotsTxtAskedOnceASecondUntilRead() {
        List<String> asked = paths(RECOVERING);
        assertEquals(List.of(RobotsTxt.PATH, RobotsTxt.PATH, RobotsTxt.PATH), asked.subList(0, 3),
                "robots.txt asked once a second, not once a request, and no page before it was read: " + asked);
        assertEquals(3, asked.stream().filter(RobotsTxt.PATH::equals).count(), asked.toString());
    }

    /** Queues {@value #PAGES} pages of {@code domain}, each failing {@value #RETRY_TIMES} times before it answers. */
    private Set<String> seed(int domain, String crawlid) {
        List<String> pages = new ArrayList<>();
        IntStream.range(0, PAGES).forEach(page -> pages.add(origin.url(domain, FlakyThenOk.path(RETRY_TIMES, "page" + page))));
        pages.forEach(page -> bed.seed(CrawlerTestBed.feedItem(page, crawlid)));
        return Set.copyOf(pages);
    }

    /** Every page crawled once, each on its last retry. */
    private static void assertCrawled(Set<String> pages, List<JsonNode> results) {
        assertEquals(pages, Set.copyOf(CrawlerTestBed.urls(results)));
        assertEquals(PAGES, results.size());
        assertTrue(results.stream().allMatch(result -> FlakyThenOk.OK_BODY.equals(result.get("body").asText())),
                results.stream().map(result -> result.get("status_code") + " " + result.get("url")).collect(Collectors.joining(", ")));
    }

    private List<String> paths(int domain) {
        return origin.requests().forDomain(domain).stream().map(RecordedRequest::path).toList();
    }
}
