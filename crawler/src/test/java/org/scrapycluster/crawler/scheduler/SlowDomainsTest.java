package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which domains count as slow, on a clock moved by hand. */
class SlowDomainsTest {

    private static final long MEMORY = SlowDomains.MEMORY.toNanos();

    private final SlowDomains slow = new SlowDomains();

    @Test
    void aDomainIsSlowFromATimeoutUntilAFetchOfItEndsOtherwise() {
        assertFalse(slow.isSlow("a.test", 0));

        slow.finished("a.test", true, 0);
        assertTrue(slow.isSlow("a.test", 1));
        assertFalse(slow.isSlow("b.test", 1), "only the domain that timed out");

        slow.finished("a.test", false, 2);
        assertFalse(slow.isSlow("a.test", 3));
    }

    @Test
    void aDomainIsForgottenAWhileAfterItsLastTimeout() {
        slow.finished("a.test", true, 0);
        slow.finished("a.test", true, 100);
        assertTrue(slow.isSlow("a.test", MEMORY), "the second timeout counts from its own time");
        assertFalse(slow.isSlow("a.test", 100 + MEMORY));
    }

    @Test
    void theDomainsForgottenMeanwhileDoNotComeBackWithAnotherTimeout() {
        slow.finished("a.test", true, 0);
        slow.finished("b.test", true, MEMORY / 2);
        slow.finished("c.test", true, MEMORY + 1);

        assertEquals(2, slow.size(), "the first forgotten as the third came");
        assertFalse(slow.isSlow("a.test", MEMORY + 2));
        assertTrue(slow.isSlow("b.test", MEMORY + 2));
        assertTrue(slow.isSlow("c.test", MEMORY + 2));
    }

    @Test
    void aRequestThatEndsOtherwiseClearsItsDomainAndForgetsTheExpired() {
        slow.finished("a.test", true, 0);
        slow.finished("b.test", true, 1);
        slow.finished("c.test", false, MEMORY + 1);

        assertEquals(0, slow.size());
    }
}
