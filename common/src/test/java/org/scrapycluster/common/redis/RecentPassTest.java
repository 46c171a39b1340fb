package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.ManualClock;

/** The last pass's finding, answered between passes, on a clock moved by hand. */
class RecentPassTest {

    private final ManualClock clock = new ManualClock();
    private final RecentPass<Integer> recent = new RecentPass<>(Duration.ofSeconds(10), clock, 0);
    private final AtomicInteger passes = new AtomicInteger();
    private final Supplier<Integer> pass = passes::incrementAndGet;

    @Test
    void betweenPassesEveryAskGetsWhatTheLastPassFound() {
        assertEquals(1, recent.get(pass));
        clock.advance(Duration.ofSeconds(9));
        assertEquals(1, recent.get(pass));
        assertEquals(1, passes.get(), "no pass within the period");
        clock.advance(Duration.ofSeconds(2));
        assertEquals(2, recent.get(pass));
    }

    @Test
    void aFailedPassCountsAsNoneAndTheNextAskMakesItAgain() {
        assertThrows(IllegalStateException.class, () -> recent.get(() -> {
            throw new IllegalStateException("Redis went away");
        }));
        assertEquals(1, recent.get(pass), "the failed pass counted as none");
        clock.advance(Duration.ofSeconds(11));
        assertThrows(IllegalStateException.class, () -> recent.get(() -> {
            throw new IllegalStateException("Redis went away");
        }));
        assertEquals(2, recent.get(pass));
    }
}
