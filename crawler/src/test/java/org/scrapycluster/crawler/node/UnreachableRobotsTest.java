package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.RobotsTxt;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * A host whose server answers its robots.txt with an error (docs/differences.md): a crawler node does not fetch its pages
 * until the file is read, as RFC 9309 asks, but files each request again and pauses the domain, so that none is lost; once
 * a request's retries are used up it is fetched, as Scrapy would. A real node against a real server on a loopback address.
 */
@ExtendWith(SharedStack.class)
class UnreachableRobotsTest {

    /** Its robots.txt answers 503 once, then allows everything. */
    private static final int RECOVERING = 0;
    /** Its robots.txt always answers 500. */
    private static final int DOWN = 1;

    private final EmbeddedStack stack;
    private final AtomicInteger recoveringAnswers = new AtomicInteger();
    private TestOrigin origin;
    private CrawlerTestBed bed;

    UnreachableRobotsTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void start() {
        origin = TestOrigin.builder().domains(2).route(RobotsTxt.PATH, exchange -> {
            if (exchange.domainIndex() == DOWN || recoveringAnswers.getAndIncrement() == 0) {
                exchange.sendText(exchange.domainIndex() == DOWN ? 500 : 503, "text/plain", "down for now");
            } else {
                RobotsTxt.allowAll().serve(exchange);
            }
        }).start();
        bed = new CrawlerTestBed(stack).set("ROBOTSTXT_RETRY_SECONDS", 1).set("RETRY_TIMES", 2);
    }

    @AfterEach
    void stop() {
        bed.close();
        origin.close();
    }

    @Test
    void aPageWaitsUntilItsHostsRobotsTxtIsReadAndIsThenCrawled() {
        bed.startNode();
        String page = origin.url(RECOVERING, StatusRoute.path(200));
        bed.seed(CrawlerTestBed.feedItem(page, "robots-recovering"));

        assertEquals(List.of(page), CrawlerTestBed.urls(bed.awaitResults(1)));
        assertEquals(List.of(RobotsTxt.PATH, RobotsTxt.PATH, StatusRoute.PATH), paths(RECOVERING),
                "the page is fetched only once the file is read: put back, not dropped, after the 503");
    }

    @Test
    void aPageWhoseRobotsTxtKeepsFailingIsCrawledOnceItsRetriesAreUsedUp() {
        bed.startNode();
        String page = origin.url(DOWN, StatusRoute.path(200));
        bed.seed(CrawlerTestBed.feedItem(page, "robots-down"));

        assertEquals(List.of(page), CrawlerTestBed.urls(bed.awaitResults(1)));
        List<String> asked = paths(DOWN);
        assertEquals(StatusRoute.PATH, asked.getLast(), "the page, once, after every robots.txt request: " + asked);
        assertEquals(1, asked.stream().filter(StatusRoute.PATH::equals).count(), asked.toString());
        assertTrue(asked.size() >= 3, "robots.txt asked again after each pause: " + asked);
    }

    private List<String> paths(int domain) {
        return origin.requests().forDomain(domain).stream().map(RecordedRequest::path).toList();
    }
}
