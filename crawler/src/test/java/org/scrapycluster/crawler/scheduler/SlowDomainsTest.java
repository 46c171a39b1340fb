package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

/** Which domains are slow, and how many requests each may have in flight, on a clock moved by hand. */
class SlowDomainsTest {

    private static final long MEMORY = SlowDomains.MEMORY.toNanos();

    private final SlowDomains slow = new SlowDomains(4);

    @Test
    void aTimeoutLimitsItsDomainToOneAndEachFetchThatEndsOtherwiseAddsOneUpToTheFullLimit() {
        assertEquals(OptionalInt.empty(), slow.limit("a.test", 0));

        slow.finished("a.test", LastFetch.SLOW, 0);
        assertEquals(OptionalInt.of(1), slow.limit("a.test", 1));
        assertEquals(OptionalInt.empty(), slow.limit("b.test", 1), "only the domain that timed out");

        slow.finished("a.test", LastFetch.IN_TIME, 2);
        slow.finished("a.test", LastFetch.IN_TIME, 3);
        assertEquals(OptionalInt.of(3), slow.limit("a.test", 4));
        slow.finished("a.test", LastFetch.SLOW, 5);
        assertEquals(OptionalInt.of(1), slow.limit("a.test", 6), "a timeout starts it over");

        slow.finished("a.test", LastFetch.IN_TIME, 7);
        slow.finished("a.test", LastFetch.IN_TIME, 8);
        slow.finished("a.test", LastFetch.IN_TIME, 9);
        assertEquals(OptionalInt.empty(), slow.limit("a.test", 10), "at the full limit it is slow no more");
        assertEquals(0, slow.count(11));
    }

    @Test
    void aRequestThatEndedWithoutAFetchEndingSaysNothingOfItsDomain() {
        slow.finished("a.test", LastFetch.SLOW, 0);
        for (int dropped = 0; dropped < 7; dropped++) {
            slow.finished("a.test", LastFetch.NONE, 1 + dropped); // dropped by robots.txt, put back, cancelled
        }
        assertEquals(OptionalInt.of(1), slow.limit("a.test", 10), "still slow: no fetch of it ended in time");
    }

    @Test
    void aDomainIsForgottenAWhileAfterItsLastTimeout() {
        slow.finished("a.test", LastFetch.SLOW, 0);
        slow.finished("a.test", LastFetch.SLOW, 100);
        assertEquals(OptionalInt.of(1), slow.limit("a.test", MEMORY), "the second timeout counts from its own time");
        assertEquals(OptionalInt.empty(), slow.limit("a.test", 100 + MEMORY));
    }

    @Test
    void theDomainsForgottenAreNotCountedWhetherOrNotARequestFinishedSince() {
        slow.finished("a.test", LastFetch.SLOW, 0);
        slow.finished("b.test", LastFetch.SLOW, 1);
        assertEquals(2, slow.count(MEMORY - 1));
        assertEquals(1, slow.count(MEMORY));
        assertEquals(0, slow.count(MEMORY + 1));
    }

    @Test
    void theDomainsForgottenMeanwhileGoAtTheNextRequestFinished() {
        slow.finished("a.test", LastFetch.SLOW, 0);
        slow.finished("b.test", LastFetch.SLOW, MEMORY / 2);
        slow.finished("a.test", LastFetch.IN_TIME, MEMORY / 2);
        slow.finished("c.test", LastFetch.IN_TIME, MEMORY + 1);

        assertEquals(1, slow.count(MEMORY + 1), "a forgotten, b kept, c never slow");
        assertEquals(OptionalInt.of(1), slow.limit("b.test", MEMORY + 2));
    }
}
