package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class DomainThrottleTest {

    @Test
    void fitScaleClampsToZeroToOne() {
        assertEquals(1.0, DomainThrottle.fitScale(1.1));
        assertEquals(0.0, DomainThrottle.fitScale(-1.9));
        assertEquals(0.51, DomainThrottle.fitScale(0.51));
    }

    @Test
    void effectiveHitsAreTheFloorOfScaledHits() {
        assertEquals(10, DomainThrottle.of(50, 10, 1.0).effectiveHits());
        assertEquals(5, DomainThrottle.of(50, 10, 0.5).effectiveHits());
        assertEquals(13, DomainThrottle.of(60, 15, 0.9).effectiveHits());
        assertEquals(28, DomainThrottle.of(60, 100, 0.29).effectiveHits(), "100 * 0.29 is 28.999999999999996");
        assertEquals(10, DomainThrottle.of(60, 10, 7.0).effectiveHits(), "scale above 1 counts as 1");
        assertEquals(0, DomainThrottle.of(60, 10, -1.0).effectiveHits(), "scale below 0 counts as 0");
        assertEquals(30, new DomainThrottle(OptionalDouble.of(60), OptionalDouble.of(30), OptionalDouble.empty()).effectiveHits(),
                "no scale counts as 1");
    }

    /** As the original: int(hits * scale) with a scale; without one, a window count below 2.5 lets a third through. */
    @Test
    void fractionalHitsCountAsTheOriginalCountsThem() {
        assertEquals(2, new DomainThrottle(OptionalDouble.of(60), OptionalDouble.of(2.5), OptionalDouble.of(0.9)).effectiveHits(),
                "int(2.5 * 0.9), not int(2 * 0.9)");
        assertEquals(3, new DomainThrottle(OptionalDouble.of(60), OptionalDouble.of(2.5), OptionalDouble.empty()).effectiveHits());
        assertEquals(0, new DomainThrottle(OptionalDouble.of(60), OptionalDouble.of(-0.5), OptionalDouble.empty()).effectiveHits());
        assertEquals(0, new DomainThrottle(OptionalDouble.of(60), OptionalDouble.of(Double.NaN), OptionalDouble.empty()).effectiveHits(),
                "no count is below .nan");
    }

    @Test
    void anEntryAppliesWithAWindowAbove0AndHits() {
        assertTrue(DomainThrottle.of(60, 10, 1.0).applies());
        assertTrue(DomainThrottle.of(0.5, 10, 1.0).applies(), "half a second, as Python crawlers apply it");
        assertEquals(0.5, DomainThrottle.of(0.5, 10, 1.0).appliedWindow());
        assertEquals(DomainThrottle.LONGEST_WINDOW_SECONDS, DomainThrottle.of(1e12, 10, 1.0).appliedWindow(), "at most a year");
        assertTrue(DomainThrottle.of(1, 0, 1.0).applies(), "no hits pauses the domain");
        assertTrue(DomainThrottle.of(60, -1, 1.0).applies(), "as do fewer, as in the original");
        assertFalse(DomainThrottle.of(0, 10, 1.0).applies(), "a window of 0 would let everything through");
        assertFalse(DomainThrottle.of(-60, 10, 1.0).applies());
        DomainThrottle noWindow = new DomainThrottle(OptionalDouble.empty(), OptionalDouble.of(10), OptionalDouble.empty());
        DomainThrottle noHits = new DomainThrottle(OptionalDouble.of(60), OptionalDouble.empty(), OptionalDouble.of(1.0));
        assertFalse(noWindow.applies());
        assertFalse(noHits.applies());
        assertThrows(IllegalStateException.class, noHits::effectiveHits);
    }
}
