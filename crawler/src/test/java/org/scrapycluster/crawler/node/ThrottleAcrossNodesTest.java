package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Two crawler nodes on one domain with 5 hits per 2 s window: at the origin, which records arrival times,
 * no 1.9 s holds more than 5 pages, and over 20 s the nodes together use at least 95 % of the allowance
 * (whole windows only). A ZooKeeper change applied live is shown in parts: DomainConfigFollowerTest turns the
 * config into throttles and tells the scheduler, SchedulerTest shows a changed config making every domain ready
 * at once under its new spec.
 */
@ExtendWith(SharedStack.class)
class ThrottleAcrossNodesTest {

    private static final long WINDOW_NANOS = Duration.ofSeconds(2).toNanos();
    private static final long CHECK_NANOS = Duration.ofMillis(1900).toNanos();
    private static final Duration FIRST_PHASE = Duration.ofSeconds(20);

    private final EmbeddedStack stack;

    ThrottleAcrossNodesTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void twoNodesTogetherKeepTheLimitAndUseIt() {
        SyntheticSite site = SyntheticSite.builder().domains(1).pagesPerDomain(150).linksPerPage(2).pageBytes(300).build();
        try (TestOrigin origin = TestOrigin.start(site); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("QUEUE_HITS", 5).set("QUEUE_WINDOW", 2).set("QUEUE_MODERATED", true).set("ROBOTSTXT_OBEY", false);
            bed.startNode();
            bed.startNode();
            for (int page = 0; page < site.pagesPerDomain(); page++) {
                bed.seed(CrawlerTestBed.feedItem(origin.pageUrl(new PageRef(0, page)), "throttle"));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !pages(origin).isEmpty());
            long first = pages(origin).getFirst();
            long end = first + FIRST_PHASE.toNanos();
            sleepUntil(end);

            List<Long> before = pages(origin).stream().filter(t -> t - end < 0).toList();
            // the first fetch in a cold JVM (class loading, the first connection) lags its hand-out by more than the
            // check's 0.1 s of slack, which makes it look closer to the second than the throttle spaced them
            assertAtMost(before.subList(1, before.size()), 5);
            long fullWindows = (before.getLast() - first) / WINDOW_NANOS;
            long used = before.stream().filter(t -> t - first < fullWindows * WINDOW_NANOS).count();
            assertTrue(fullWindows >= 8, "only " + fullWindows + " whole windows");
            assertTrue(used >= 0.95 * 5 * fullWindows, used + " pages in " + fullWindows + " whole windows, " + 5 * fullWindows + " allowed");
        }
    }

    private static List<Long> pages(TestOrigin origin) {
        return origin.requests().matching(r -> r.path().startsWith(SyntheticSite.PAGE_PREFIX)).stream()
                .map(RecordedRequest::nanoTime).sorted().toList();
    }

    private static void assertAtMost(List<Long> arrivals, int hits) {
        for (int i = 0; i < arrivals.size(); i++) {
            int inWindow = 0;
            for (int j = i; j < arrivals.size() && arrivals.get(j) - arrivals.get(i) < CHECK_NANOS; j++) {
                inWindow++;
            }
            assertTrue(inWindow <= hits, inWindow + " pages within 1.9 s, " + hits + " allowed");
        }
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            try {
                Thread.sleep(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
