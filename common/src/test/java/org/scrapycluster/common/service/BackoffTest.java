package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

/** {@link Backoff#retry}: how the services ride out a server that is away. */
class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), RandomGenerator.getDefault());

    @Test
    void retriesItsFailuresWithGrowingPausesAndSaysTheFirstOnly() {
        AtomicInteger calls = new AtomicInteger();
        List<String> said = new ArrayList<>();
        List<Duration> pauses = new ArrayList<>();

        String value = backoff.retry(IllegalStateException.class, () -> {
            if (calls.incrementAndGet() < 4) {
                throw new IllegalStateException("away " + calls.get());
            }
            return "up";
        }, e -> said.add(e.getMessage()), pauses::add);

        assertEquals("up", value);
        assertEquals(List.of("away 1"), said);
        assertEquals(3, pauses.size());
        assertEquals(3, backoff.attempts());
        assertTrue(pauses.get(2).compareTo(Duration.ofMillis(2000)) >= 0, pauses.toString());
    }

    @Test
    void anotherFailureEndsTheLoop() {
        IllegalArgumentException other = new IllegalArgumentException("bad setting");
        assertSame(other, assertThrows(IllegalArgumentException.class, () -> backoff.retry(IllegalStateException.class, () -> {
            throw other;
        }, e -> { }, pause -> { })));
        assertEquals(0, backoff.attempts());
    }

    @Test
    void aPauseThatThrowsEndsTheLoop() {
        AtomicInteger calls = new AtomicInteger();
        assertThrows(UnsupportedOperationException.class, () -> backoff.retry(IllegalStateException.class, () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("away");
        }, e -> { }, pause -> {
            throw new UnsupportedOperationException("closing");
        }));
        assertEquals(1, calls.get());
    }
}
