package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What a stop's budget grants its waits, with the clock moved by hand: a wait that stalls is one that takes all it is granted. */
class StopBudgetTest {

    private Instant now = Instant.EPOCH;
    private final InstantSource clock = () -> now;
    private final StopBudget budget = StopBudget.of(Duration.ofSeconds(15), Duration.ofSeconds(10), clock);

    @Test
    void anOrdinaryWaitGetsItsCapAndNeverTheReserve() {
        assertEquals(Duration.ofSeconds(2), budget.waitFor(Duration.ofSeconds(2)));
        assertEquals(Duration.ofSeconds(5), budget.waitFor(Duration.ofSeconds(30)));

        now = now.plusSeconds(4);
        assertEquals(Duration.ofSeconds(1), budget.waitFor(Duration.ofSeconds(5)));
        now = now.plusSeconds(3);
        assertEquals(Duration.ZERO, budget.waitFor(Duration.ofSeconds(5)), "into the reserve");
    }

    @Test
    void theLastWaitsShareWhatIsLeftReserveIncluded() {
        now = now.plusSeconds(7);
        assertEquals(Duration.ofSeconds(8), budget.reservedWaitFor(Duration.ofSeconds(30)));
        assertEquals(Duration.ofSeconds(3), budget.reservedWaitFor(Duration.ofSeconds(3)));

        now = now.plusSeconds(8);
        assertEquals(Duration.ZERO, budget.reservedWaitFor(Duration.ofSeconds(3)));
        now = now.plusSeconds(8);
        assertEquals(Duration.ZERO, budget.reservedWaitFor(Duration.ofSeconds(3)), "never negative");
    }

    @Test
    void aPartThatKeepsTimeForThePartsAfterItIsCutShortThatMuchEarlier() {
        StopBudget first = budget.keeping(Duration.ofSeconds(3));

        assertEquals(Duration.ofSeconds(2), first.waitFor(Duration.ofSeconds(5)));
        now = now.plusSeconds(2);
        assertEquals(Duration.ZERO, first.waitFor(Duration.ofSeconds(5)), "the time kept for the parts after it");
        assertEquals(Duration.ofSeconds(3), budget.waitFor(Duration.ofSeconds(5)), "the parts after it have it");
        assertEquals(Duration.ofSeconds(13), first.reservedWaitFor(Duration.ofSeconds(30)), "the last waits are as before");

        first.gaveUp("a write");
        assertEquals(List.of("a write"), budget.givenUp(), "noted in the budget");
    }

    @Test
    void whatThePartsGaveUpIsKeptInOrder() {
        budget.gaveUp("the release of a lock");
        budget.gaveUp("the statistics");

        assertEquals(List.of("the release of a lock", "the statistics"), budget.givenUp());
    }

    @Test
    void aReserveLargerThanTheBudgetIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StopBudget.of(Duration.ofSeconds(5), Duration.ofSeconds(6), clock));
    }
}
