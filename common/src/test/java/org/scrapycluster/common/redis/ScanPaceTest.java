package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.ManualClock;

/** The pace of passes over the keyspace, on a clock moved by hand. */
class ScanPaceTest {

    private final ManualClock clock = new ManualClock();
    private final ScanPace pace = new ScanPace(Duration.ofSeconds(10), clock);
    private final AtomicInteger passes = new AtomicInteger();

    @Test
    void theFirstPassRunsAtOnceAndTheNextAfterThePeriod() {
        assertEquals(Optional.of(1), pace.ifDue(pass(Duration.ofMillis(5))));

        clock.advance(Duration.ofMillis(9_990));
        assertEquals(Optional.empty(), pace.ifDue(pass(Duration.ZERO)), "the period counts from the end of the pass");
        clock.advance(Duration.ofMillis(15));
        assertEquals(Optional.of(2), pace.ifDue(pass(Duration.ZERO)));
    }

    @Test
    void aSlowPassIsFollowedByThirtyNineTimesItsDurationWithoutOne() {
        pace.ifDue(pass(Duration.ofSeconds(2)));

        clock.advance(Duration.ofSeconds(77));
        assertEquals(Optional.empty(), pace.ifDue(pass(Duration.ZERO)), "a pass of 2 s: 78 s without one, not the period's 10");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Optional.of(2), pace.ifDue(pass(Duration.ZERO)));
        clock.advance(Duration.ofSeconds(10));
        assertEquals(Optional.of(3), pace.ifDue(pass(Duration.ZERO)), "a fast pass brings the period back");
    }

    @Test
    void aFailedPassCountsAsNone() {
        pace.ifDue(pass(Duration.ZERO));
        clock.advance(Duration.ofSeconds(10));

        assertThrows(IllegalStateException.class, () -> pace.ifDue(() -> {
            clock.advance(Duration.ofSeconds(3));
            throw new IllegalStateException("Redis went away");
        }));

        assertEquals(Optional.of(2), pace.ifDue(pass(Duration.ZERO)));
    }

    @Test
    void oneSlowPassAmongFastOnesDoesNotSpaceTheNext() {
        pace.ifDue(pass(Duration.ofMillis(5)));
        clock.advance(Duration.ofSeconds(10));
        pace.ifDue(pass(Duration.ofSeconds(2)));

        clock.advance(Duration.ofSeconds(10));
        assertEquals(Optional.of(3), pace.ifDue(pass(Duration.ZERO)), "a pause in one pass is not a large keyspace");
    }

    @Test
    void passesThatStaySlowSpaceTheNextByTheShortestOfTheLastThree() {
        assertEquals(Duration.ofSeconds(10), pace.quietAfter(Duration.ofMillis(5)));
        assertEquals(Duration.ofSeconds(10), pace.quietAfter(Duration.ofSeconds(1)));
        assertEquals(Duration.ofSeconds(10), pace.quietAfter(Duration.ofSeconds(3)), "the fast pass is one of the last three");
        assertEquals(Duration.ofSeconds(39), pace.quietAfter(Duration.ofSeconds(2)), "the keyspace grew: 1, 3 and 2 s");
        assertEquals(Duration.ofSeconds(78), pace.quietAfter(Duration.ofSeconds(4)));
    }

    @Test
    void theQuietTimeIsThePeriodOrThirtyNineTimesThePass() {
        assertEquals(Duration.ofSeconds(10), pace.quietAfter(Duration.ofMillis(200)));
        assertEquals(Duration.ofMillis(11_700), new ScanPace(Duration.ofSeconds(10), clock).quietAfter(Duration.ofMillis(300)));
    }

    /** A pass that takes {@code took} on the clock and answers how many passes ran. */
    private Supplier<Integer> pass(Duration took) {
        return () -> {
            clock.advance(took);
            return passes.incrementAndGet();
        };
    }
}
