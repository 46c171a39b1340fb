package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class ThrottleSpecTest {

    @Test
    void scaleHalvesTheAllowance() {
        assertEquals(5, ThrottleSpec.of("ex1", 60, 10, 0.5, true).limit());
        assertEquals(10, ThrottleSpec.of("ex1", 60, 10, 1.0, true).limit());
    }

    @Test
    void scaleIsClampedAndTruncatedAsInTheOriginal() {
        assertEquals(10, ThrottleSpec.of("ex1", 60, 10, 7, false).limit());
        assertEquals(0, ThrottleSpec.of("ex1", 60, 10, -1, false).limit());
        assertEquals(3, ThrottleSpec.of("ex1", 60, 7, 0.5, false).limit());
        assertEquals(0, ThrottleSpec.of("ex1", 60, 3, 0.1, false).limit());
    }

    @Test
    void limitZeroIsPausedWithoutDividingByZero() {
        ThrottleSpec paused = ThrottleSpec.of("ex1", 60, 10, 0, true);
        assertTrue(paused.paused());
        assertEquals(Optional.empty(), paused.spacing());
    }

    @Test
    void moderationSpacesByWindowOverLimitOnlyAboveOneHit() {
        assertEquals(Optional.of(Duration.ofSeconds(6)), new ThrottleSpec("ex1", 60, 10, true).spacing());
        assertEquals(Optional.empty(), new ThrottleSpec("ex1", 60, 1, true).spacing());
        assertEquals(Optional.empty(), new ThrottleSpec("ex1", 60, 10, false).spacing());
    }

    @Test
    void theLeastGapIsTheSpacingOrTheWindowOfOneHit() {
        assertEquals(Optional.of(Duration.ofSeconds(6)), new ThrottleSpec("ex1", 60, 10, true).leastGap());
        assertEquals(Optional.of(Duration.ofMillis(1500)), new ThrottleSpec("ex1", 1.5, 1, false).leastGap(),
                "one a window, moderated or not");
        assertEquals(Optional.empty(), new ThrottleSpec("ex1", 60, 10, false).leastGap(), "ten a minute, together");
        assertEquals(Optional.empty(), ThrottleSpec.of("ex1", 60, 10, 0, true).leastGap(), "none at all");
    }

    @Test
    void theFourKeyStylesOfTheOriginal() {
        assertEquals("ex1", new ThrottleKeyStyle(false, false).throttleKey("link", "1.2.3.4", "ex1"));
        assertEquals("link:ex1", new ThrottleKeyStyle(true, false).throttleKey("link", "1.2.3.4", "ex1"));
        assertEquals("1.2.3.4:ex1", new ThrottleKeyStyle(false, true).throttleKey("link", "1.2.3.4", "ex1"));
        assertEquals("link:1.2.3.4:ex1", new ThrottleKeyStyle(true, true).throttleKey("link", "1.2.3.4", "ex1"));
        ThrottleSpec spec = new ThrottleSpec(new ThrottleKeyStyle(true, true).throttleKey("link", "1.2.3.4", "ex1"), 60, 10, true);
        assertEquals("link:1.2.3.4:ex1:throttle_window", spec.windowKey());
        assertEquals("link:1.2.3.4:ex1:throttle_time", spec.timeKey());
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new ThrottleSpec("", 60, 10, true));
        assertThrows(IllegalArgumentException.class, () -> new ThrottleSpec("ex1", 0, 10, true));
        assertThrows(IllegalArgumentException.class, () -> new ThrottleSpec("ex1", Double.NaN, 10, true));
        assertThrows(IllegalArgumentException.class, () -> new ThrottleSpec("ex1", 60, -1, true));
        assertFalse(new ThrottleSpec("ex1", 60, 1, true).paused());
    }
}
