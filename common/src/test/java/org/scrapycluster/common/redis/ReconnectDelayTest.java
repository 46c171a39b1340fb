package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Lettuce reconnects as the services retry: from 0.5 s, doubling to 10 s, never Lettuce's own 30 s. */
class ReconnectDelayTest {

    private final ReconnectDelay delay = new ReconnectDelay();

    @Test
    void theFirstWaitIsAtMostASecondAndNoneIsLongerThanTenSeconds() {
        for (int draw = 0; draw < 100; draw++) {
            Duration first = delay.createDelay(1);
            assertTrue(first.compareTo(Duration.ofMillis(500)) >= 0 && first.compareTo(Duration.ofSeconds(1)) <= 0, first.toString());
            for (long attempt = 2; attempt <= 40; attempt++) {
                Duration wait = delay.createDelay(attempt);
                assertTrue(wait.compareTo(Duration.ofSeconds(10)) <= 0, attempt + ": " + wait);
            }
            Duration late = delay.createDelay(1_000_000);
            assertTrue(late.compareTo(Duration.ofSeconds(5)) >= 0 && late.compareTo(Duration.ofSeconds(10)) <= 0, late.toString());
        }
    }

    @Test
    void theWaitsGrowWithTheAttempts() {
        assertTrue(delay.createDelay(3).compareTo(Duration.ofSeconds(2)) >= 0, "the third wait is drawn from 2 to 4 s");
        assertTrue(delay.createDelay(2).compareTo(Duration.ofSeconds(2)) <= 0, "the second from 1 to 2 s");
    }
}
