package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

/** The readiness index hands out the domain that is ready soonest, once, and follows rescheduling. */
class ReadinessIndexTest {

    private final ReadinessIndex index = new ReadinessIndex();

    @Test
    void theDomainReadySoonestComesFirstAndOnlyWhenReady() {
        index.schedule("b.com", 200);
        index.schedule("a.com", 100);
        index.schedule("c.com", 100);
        assertEquals(Optional.empty(), index.pollReady(99));
        assertEquals(OptionalLong.of(100), index.nextReadyAt());
        assertEquals(Optional.of("a.com"), index.pollReady(150), "ties go to the one scheduled first");
        assertEquals(Optional.of("c.com"), index.pollReady(150));
        assertEquals(Optional.empty(), index.pollReady(150));
        assertEquals(Optional.of("b.com"), index.pollReady(200));
        assertEquals(0, index.size());
    }

    @Test
    void reschedulingReplacesTheTimeAndRemovingForgets() {
        index.schedule("a.com", 100);
        index.schedule("a.com", 500);
        assertEquals(1, index.size());
        assertEquals(Optional.empty(), index.pollReady(300));
        index.schedule("b.com", 50);
        index.remove("b.com");
        assertFalse(index.contains("b.com"));
        index.advanceTo("b.com", 200);
        assertFalse(index.contains("b.com"), "a domain not in the index stays out");
        index.advanceTo("a.com", 200);
        index.advanceTo("a.com", 400);
        assertEquals(Optional.of("a.com"), index.pollReady(200), "advanced, never put back");
    }

    @Test
    void manyReschedulesKeepTheIndexSmallAndOrdered() {
        for (int round = 0; round < 1000; round++) {
            for (int domain = 0; domain < 10; domain++) {
                index.schedule("d" + domain, round * 10L + domain);
            }
        }
        assertEquals(10, index.size());
        for (int domain = 0; domain < 10; domain++) {
            assertEquals(Optional.of("d" + domain), index.pollReady(Long.MAX_VALUE / 2));
        }
    }
}
