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
 * (docs/operations.md "Scans of the keyspace").
 *
 * <p>The duration that paces is the shortest of the last three passes. A pass is timed by its caller, so a collector's
 * pause or a busy machine can stretch one pass tenfold though Redis walked no more keys; taken alone, such a pass would
 * keep the next away for 39 times that. A keyspace that has grown makes every pass slow, and the shortest of three is
 * then slow too: from the third pass after the growth on, and at once for the first pass a pace makes.
 *
 * <p>A pass that fails counts as none: the next is due at once. Not thread-safe: its callers run their passes one at a
 * time.
 */
public final class ScanPace {

    /** How many times its own duration a pass is followed by none, at least. */
    static final int QUIET_FACTOR = 39;
    /** How many of the last passes' durations the pace takes the shortest of. */
    static final int PASSES_KEPT = 3;

    private final Duration period;
    private final InstantSource clock;
    /** The last passes' durations, the latest at {@code (passes - 1) % PASSES_KEPT}. */
    private final Duration[] recent = new Duration[PASSES_KEPT];
    private int passes;
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
        due = ended.plus(quietAfter(Duration.between(started, ended)));
        return Optional.of(found);
    }

    /**
     * Records a pass that took {@code took}, for a caller that runs and times its passes itself, and answers the time
     * before the next: the period, or 39 times the shortest of the last three passes if that is longer.
     */
    public Duration quietAfter(Duration took) {
        recent[passes++ % PASSES_KEPT] = took;
        Duration shortest = took;
        for (int i = 0; i < Math.min(passes, PASSES_KEPT); i++) {
            if (recent[i].compareTo(shortest) < 0) {
                shortest = recent[i];
            }
        }
        Duration scaled = shortest.multipliedBy(QUIET_FACTOR);
        return scaled.compareTo(period) > 0 ? scaled : period;
    }
}
