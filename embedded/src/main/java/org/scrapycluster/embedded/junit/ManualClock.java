package org.scrapycluster.embedded.junit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock for unit tests that moves only when told, so that time-driven logic is tested without sleeping. */
public final class ManualClock implements InstantSource {

    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

    /** Moves the clock forward by {@code duration}. */
    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
    }
}
