package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.embedded.junit.ManualClock;

class DupefilterMemoryTest {

    private static final Duration TTL = Duration.ofMinutes(10);

    private final ManualClock clock = new ManualClock();
    private final DupefilterMemory memory = new DupefilterMemory(1000, TTL, clock);

    private static EnqueueRequest.Dupefilter link(String crawlid, String fingerprint) {
        return new EnqueueRequest.Dupefilter("link:dupefilter:" + crawlid, fingerprint, TTL);
    }

    @Test
    void aFingerprintRedisAnsweredForIsHeldForHalfTheExpiryOfItsLastRenewal() {
        assertFalse(memory.holds(link("c1", "a")));
        memory.answered(link("c1", "a"), EnqueueOutcome.QUEUED, memory.now());
        assertTrue(memory.holds(link("c1", "a")));
        assertFalse(memory.holds(link("c2", "a")), "another crawl's dupefilter");

        clock.advance(TTL.dividedBy(2).minusSeconds(1));
        memory.answered(link("c1", "b"), EnqueueOutcome.DUPLICATE, memory.now());
        clock.advance(Duration.ofSeconds(2));
        assertTrue(memory.holds(link("c1", "a")), "the call about b renewed the whole dupefilter");
        clock.advance(TTL.dividedBy(2));
        assertFalse(memory.holds(link("c1", "a")));
        assertFalse(memory.holds(link("c1", "b")));
    }

    @Test
    void aStoppedOrExpiredCrawlsAnswerTeachesNothing() {
        memory.answered(link("c1", "a"), EnqueueOutcome.BLACKLISTED, memory.now());
        memory.answered(link("c1", "b"), EnqueueOutcome.EXPIRED, memory.now());
        assertFalse(memory.holds(link("c1", "a")));
        assertFalse(memory.holds(link("c1", "b")));
    }

    @Test
    void aFingerprintOnItsWayIsHeldOnlyInALiveDupefilterAndUntilRefused() {
        memory.sending(link("c1", "a"));
        assertFalse(memory.holds(link("c1", "a")), "a dupefilter this node never saw renewed may not exist");

        memory.answered(link("c1", "a"), EnqueueOutcome.QUEUED, memory.now());
        memory.sending(link("c1", "b"));
        assertTrue(memory.holds(link("c1", "b")), "the call on its way puts it in the dupefilter");
        memory.answered(link("c1", "b"), EnqueueOutcome.BLACKLISTED, memory.now());
        assertFalse(memory.holds(link("c1", "b")), "the crawl was stopped meanwhile");
    }

    @Test
    void aFingerprintWhoseCallFailedIsForgotten() {
        memory.answered(link("c1", "a"), EnqueueOutcome.QUEUED, memory.now());
        memory.sending(link("c1", "b"));
        memory.failed(link("c1", "b"));
        assertFalse(memory.holds(link("c1", "b")), "Redis may never have seen it: the page is fetched and filed again");
        assertTrue(memory.holds(link("c1", "a")));
    }

    @Test
    void noMemoryHoldsNothing() {
        DupefilterMemory none = new DupefilterMemory(0, TTL, clock);
        none.answered(link("c1", "a"), EnqueueOutcome.QUEUED, none.now());
        assertFalse(none.holds(link("c1", "a")));
    }
}
