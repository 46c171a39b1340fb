package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.ManualClock;

/** The end of a crawl watched from outside, from end offsets fed by hand on a clock moved by hand. */
class QuietEndTest {

    private final ManualClock clock = new ManualClock();
    private final QuietEnd end = new QuietEnd(Duration.ofSeconds(15), clock, 1_000);

    @Test
    void isReachedOnceTheOffsetsHaveStoodStillForTheQuietPeriodSinceTheirLastMove() {
        for (long offsets = 1_100; offsets <= 1_300; offsets += 100) {
            clock.advance(Duration.ofSeconds(1));
            assertFalse(end.isReached(offsets), "the offsets move");
        }
        clock.advance(Duration.ofSeconds(14));
        assertFalse(end.isReached(1_300), "14 s after the last move");
        clock.advance(Duration.ofMillis(999));
        assertFalse(end.isReached(1_300));
        clock.advance(Duration.ofMillis(1));
        assertTrue(end.isReached(1_300), "15 s after the last move");
    }

    @Test
    void aMoveStartsTheQuietPeriodAgain() {
        clock.advance(Duration.ofSeconds(14));
        assertFalse(end.isReached(1_001));
        clock.advance(Duration.ofSeconds(14));
        assertFalse(end.isReached(1_001), "28 s after the start, 14 s after the move");
        clock.advance(Duration.ofSeconds(1));
        assertTrue(end.isReached(1_001));
    }

    @Test
    void offsetsThatNeverMoveEndTheQuietPeriodAfterTheStart() {
        clock.advance(Duration.ofSeconds(10));
        assertFalse(end.isReached(1_000));
        clock.advance(Duration.ofSeconds(5));
        assertTrue(end.isReached(1_000));
    }

    @Test
    void countsTheLooksInARowThatFoundTheOffsetsStill() {
        clock.advance(Duration.ofSeconds(1));
        end.isReached(1_000);
        assertEquals(1, end.stillLooks(), "no result yet");
        clock.advance(Duration.ofSeconds(1));
        end.isReached(1_200);
        assertEquals(0, end.stillLooks(), "results came");
        clock.advance(Duration.ofSeconds(1));
        end.isReached(1_200);
        assertEquals(1, end.stillLooks(), "the first look that found no more");
        clock.advance(Duration.ofSeconds(1));
        end.isReached(1_200);
        assertEquals(2, end.stillLooks());
    }
}
