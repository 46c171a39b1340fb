package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The time a stopping crawler node has, shared by the waits of its stop ({@link StopStep}) instead of a fixed timeout
 * each (docs/operations.md, "Stopping"). It ends {@link #AFTERWARDS} before the process's shutdown grace does; of it,
 * the last {@link #GIVE_BACK_RESERVE} is kept for the steps that give work back to the cluster: the acknowledgements of
 * the pages published, and the hand-back of the leases of the requests not crawled. A step waits at most its cap, and
 * at most what is left of the budget, less the reserve unless it is one of those: when the parts before it stall, they
 * are cut short, not the give-back, which the process's exit would otherwise cut off, leaving those requests leased
 * until their leases expire.
 */
final class StopBudget {

    /** Kept, after the budget, for what closes after the give-back: the last write of statistics, the Redis connection. */
    static final Duration AFTERWARDS = Duration.ofSeconds(2);
    /** Kept for giving work back: the acknowledgements' own wait (5 s), then about 2 s to hand the leases back. */
    static final Duration GIVE_BACK_RESERVE = Duration.ofSeconds(7);

    private final InstantSource clock;
    private final Instant end;

    private StopBudget(InstantSource clock, Instant end) {
        this.clock = clock;
        this.end = end;
    }

    /** The budget of a stop that begins now, for a process that exits {@code grace} from now. */
    static StopBudget starting(Duration grace, InstantSource clock) {
        return new StopBudget(clock, clock.instant().plus(grace).minus(AFTERWARDS));
    }

    /** How long {@code step} may wait, beginning now: its cap, or what is left for it, whichever is shorter. */
    Duration waitFor(StopStep step) {
        Duration left = Duration.between(clock.instant(), end);
        if (!step.givesBack()) {
            left = left.minus(GIVE_BACK_RESERVE);
        }
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        return left.compareTo(step.cap()) < 0 ? left : step.cap();
    }
}
