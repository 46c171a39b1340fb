package org.scrapycluster.common.redis;

import java.time.Duration;
import java.time.InstantSource;
import java.util.function.Supplier;

/**
 * What the last pass over the keyspace found, for a caller that answers from it between passes: a pass is made again
 * when its {@link ScanPace} says one is due (after {@code period}, or 39 times the shortest of the last three passes if longer), and
 * until then every ask gets what the last one found. A pass that fails throws to its ask and counts as none: the next
 * ask makes it again. Thread-safe.
 *
 * @param <T> what a pass finds
 */
public final class RecentPass<T> {

    private final ScanPace pace;
    private T found;

    /**
     * @param period the least time from the end of a pass to the next
     * @param none   what is answered should the first pass fail
     */
    public RecentPass(Duration period, InstantSource clock, T none) {
        this.pace = new ScanPace(period, clock);
        this.found = none;
    }

    /** What the last pass found, after making {@code pass} first if one is due. */
    public synchronized T get(Supplier<T> pass) {
        pace.ifDue(pass).ifPresent(latest -> found = latest);
        return found;
    }
}
