package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.embedded.junit.ManualClock;

class DupefilterMemoryTest {

    private static final Duration TTL = Duration.ofMinutes(10);

    /** Two fingerprints, by their leading 64 bits. */
    private static final long A = 0x9f86d081884c7d65L;
    private static final long B = 0x2c26b46b68ffc68fL;

    private final ManualClock clock = new ManualClock();
    private final DupefilterMemory memory = new DupefilterMemory(1000, TTL, clock);

    /** A look-up of one link, on a page of its own. */
    private static boolean holds(DupefilterMemory memory, String key, long fingerprint) {
        DupefilterMemory.PageLookup page = memory.page();
        boolean held = page.holds(key, fingerprint);
        page.count();
        return held;
    }

    private static String crawl(String crawlid) {
        return "link:dupefilter:" + crawlid;
    }

    @Test
    void aFingerprintRedisAnsweredForIsHeldForHalfTheExpiryOfItsLastRenewal() {
        assertFalse(holds(memory, crawl("c1"), A));
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        assertTrue(holds(memory, crawl("c1"), A));
        assertFalse(holds(memory, crawl("c2"), A), "another crawl's dupefilter");

        clock.advance(TTL.dividedBy(2).minusSeconds(1));
        memory.page().answered(crawl("c1"), B, EnqueueOutcome.DUPLICATE);
        clock.advance(Duration.ofSeconds(2));
        assertTrue(holds(memory, crawl("c1"), A), "the call about b renewed the whole dupefilter");
        clock.advance(TTL.dividedBy(2));
        assertFalse(holds(memory, crawl("c1"), A));
        assertFalse(holds(memory, crawl("c1"), B));
    }

    @Test
    void aCallIsTakenAsSentWhenItsPageWasLookedUp() {
        DupefilterMemory.PageLookup page = memory.page();
        clock.advance(Duration.ofMinutes(1));
        page.answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        clock.advance(TTL.dividedBy(2).minusMinutes(1));
        assertFalse(holds(memory, crawl("c1"), A), "trusted for half the expiry from the page's time, not the answer's");
    }

    @Test
    void aStoppedOrExpiredCrawlsAnswerTeachesNothing() {
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.BLACKLISTED);
        memory.page().answered(crawl("c1"), B, EnqueueOutcome.EXPIRED);
        assertFalse(holds(memory, crawl("c1"), A));
        assertFalse(holds(memory, crawl("c1"), B));
    }

    @Test
    void aFingerprintOnItsWayIsHeldOnlyInALiveDupefilterAndUntilRefused() {
        memory.page().sending(crawl("c1"), A);
        assertFalse(holds(memory, crawl("c1"), A), "a dupefilter this node never saw renewed may not exist");

        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        memory.page().sending(crawl("c1"), B);
        assertTrue(holds(memory, crawl("c1"), B), "the call on its way puts it in the dupefilter");
        memory.page().answered(crawl("c1"), B, EnqueueOutcome.BLACKLISTED);
        assertFalse(holds(memory, crawl("c1"), B), "the crawl was stopped meanwhile");
    }

    @Test
    void aFingerprintWhoseCallFailedIsForgotten() {
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        memory.page().sending(crawl("c1"), B);
        memory.failed(crawl("c1"), B);
        assertFalse(holds(memory, crawl("c1"), B), "Redis may never have seen it: the page is fetched and filed again");
        assertTrue(holds(memory, crawl("c1"), A));
    }

    @Test
    void twoCrawlsOverTheSamePagesAreEachRemembered() {
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        memory.page().answered(crawl("c2"), A, EnqueueOutcome.DUPLICATE);
        assertTrue(holds(memory, crawl("c1"), A));
        assertTrue(holds(memory, crawl("c2"), A));
        memory.failed(crawl("c2"), A);
        assertTrue(holds(memory, crawl("c1"), A), "only the other crawl's entry is forgotten");
        assertFalse(holds(memory, crawl("c2"), A));
    }

    @Test
    void anEntryOfAnotherDupefilterThatMixesToTheSameNumberIsNotAnAnswer() {
        long twin = DupefilterMemory.entry(crawl("c1"), A) ^ DupefilterMemory.entry(crawl("c2"), 0);
        assertTrue(DupefilterMemory.entry(crawl("c2"), twin) == DupefilterMemory.entry(crawl("c1"), A));
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        assertFalse(holds(memory, crawl("c2"), twin), "the entry names the dupefilter c1");
    }

    @Test
    void aPagesLookUpsAreCountedWhenThePageIsDone() {
        memory.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        DupefilterMemory.PageLookup page = memory.page();
        assertTrue(page.holds(crawl("c1"), A));
        assertFalse(page.holds(crawl("c1"), B));
        assertFalse(page.holds(crawl("c2"), A));
        assertEquals(0, memory.fingerprints().hitCount() + memory.fingerprints().missCount(), "not yet counted");

        page.count();

        assertEquals(1, memory.fingerprints().hitCount());
        assertEquals(2, memory.fingerprints().missCount());
    }

    @Test
    void noMemoryHoldsNothing() {
        DupefilterMemory none = new DupefilterMemory(0, TTL, clock);
        none.page().answered(crawl("c1"), A, EnqueueOutcome.QUEUED);
        assertFalse(holds(none, crawl("c1"), A));
    }
}
