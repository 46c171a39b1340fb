package org.scrapycluster.common.redis;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * When a periodic pass over the whole keyspace ({@code SCAN}) may run again. Redis walks every key for a pass, about a
 * millisecond a thousand keys, so a pass every few seconds that costs nothing on a small keyspace would take a large
 * share of Redis's one thread on a million keys. After a pass, the next is due when {@code period} has passed, or 39
 * times the pass's duration if that is longer: passes take at most a fortieth of the time, however large the keyspace
 * (docs/operations.md "Scans of the keyspace"). A pass that fails counts as none: the next is due at once. Not
 * thread-safe: its callers run their passes one at a time.
 */
public final class ScanPace {

    /** How many times its own duration a pass is followed by none, at least. */
    static final int QUIET_FACTOR = 39;

    private final Duration period;
    private final InstantSource clock;
    private Instant due = Instant.MIN;

    /** @param period the least time from the end of a pass to the next */
    public ScanPace(Duration period, InstantSource clock) {
        this.period = period;
        this.clock = clock;
    }

    /**
     * Runs the pass {@code scan} if it is due (none has run yet, or the quiet time after the last is over), timed, and
     * returns what it found; empty when it is not due.
     */
    public <T> Optional<T> ifDue(Supplier<T> scan) {
        Instant started = clock.instant();
        if (started.isBefore(due)) {
            return Optional.empty();
        }
        T found = scan.get();
        Instant ended = clock.instant();
        due = ended.plus(quiet(Duration.between(started, ended), period));
        return Optional.of(found);
    }

    /** The time after a pass that took {@code took} before the next: {@code least}, or 39 times {@code took} if longer. */
    public static Duration quiet(Duration took, Duration least) {
        Duration scaled = took.multipliedBy(QUIET_FACTOR);
        return scaled.compareTo(least) > 0 ? scaled : least;
    }
}
