package org.scrapycluster.common.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LatencyBucketsTest {

    @Test
    void oneTwoAndAHalfAndFiveInEachDecadeThenWhatIsAdded() {
        assertArrayEquals(new Duration[] {Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5),
                Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofSeconds(1)},
                LatencyBuckets.decades(Duration.ofMillis(1), Duration.ofMillis(99), Duration.ofSeconds(1)));
        assertArrayEquals(new Duration[] {Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
                Duration.ofMillis(1)}, LatencyBuckets.decades(Duration.ofNanos(100_000), Duration.ofMillis(1)));
    }

    @Test
    void theLeastBoundIsAPowerOfTen() {
        assertThrows(IllegalArgumentException.class, () -> LatencyBuckets.decades(Duration.ofMillis(2), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> LatencyBuckets.decades(Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> LatencyBuckets.decades(Duration.ofNanos(1_000_000_000_000_000_001L),
                Duration.ofNanos(Long.MAX_VALUE)), "one more than a power of ten, which a double cannot tell from it");
    }
}
