package org.scrapycluster.common.zookeeper;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * One domain's throttle override from the ZooKeeper config: at most {@code hits} pops per
 * {@code window} seconds, with {@code hits} scaled by {@code scale}. Each part may be missing in a
 * hand-written config, or out of range; crawlers use only the entries that {@linkplain #applies() apply}, and
 * the config keeps the others so that a rewrite does not lose them and a validator can point at them.
 *
 * @param window seconds, when given; a fraction is kept ({@code 0.5}), as Python crawlers apply it
 * @param hits pops allowed per window, when given; a fraction is kept, as Python crawlers apply it ({@link #effectiveHits})
 * @param scale multiplier of {@code hits}, when given (clamped to 0..1 when applied)
 */
public record DomainThrottle(OptionalDouble window, OptionalDouble hits, OptionalDouble scale) {

    /** The longest window a {@code domain-update} may set, a year; crawlers count a longer one of a hand-written config as a year. */
    public static final long LONGEST_WINDOW_SECONDS = Duration.ofDays(365).toSeconds();
    /** The windows a {@code domain-update} request may set, as the Kafka monitor's refusals name them: whole seconds (docs/api.md). */
    public static final String SETTABLE_WINDOWS = "from 1 to " + LONGEST_WINDOW_SECONDS + " seconds (a year)";
    /**
     * The same windows where a fraction of a second counts too, as the Redis monitor's refusals of a zookeeper job name
     * them (docs/redis-monitor.md).
     */
    public static final String SETTABLE_FRACTIONAL_WINDOWS = "above 0 and at most " + LONGEST_WINDOW_SECONDS + " seconds (a year)";

    public DomainThrottle {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(hits, "hits");
        Objects.requireNonNull(scale, "scale");
    }

    /**
     * Whether a {@code domain-update} may set a window of {@code seconds}: {@link #SETTABLE_FRACTIONAL_WINDOWS}, which for
     * whole seconds is {@link #SETTABLE_WINDOWS}. NaN may not.
     */
    public static boolean isSettableWindow(double seconds) {
        return seconds > 0 && seconds <= LONGEST_WINDOW_SECONDS;
    }

    /**
     * The window of a domain without an entry, {@code QUEUE_WINDOW} of {@code settings} (the crawler's, and the gateway's
     * for its live view): seconds above 0, at most a year, as for a ZooKeeper window; a longer one would overflow the
     * scheduler's waits.
     *
     * @throws SettingsException naming the setting otherwise
     */
    public static double defaultWindow(Settings settings) {
        double window = settings.getDouble("QUEUE_WINDOW");
        if (!isSettableWindow(window)) {
            throw settings.invalid("QUEUE_WINDOW", "must be a positive number of seconds, at most " + LONGEST_WINDOW_SECONDS
                    + " (a year, as for a ZooKeeper window)");
        }
        return window;
    }

    /** The hits of a domain without an entry, {@code QUEUE_HITS} of {@code settings}: 0 or more. */
    public static int defaultHits(Settings settings) {
        int hits = settings.getInt("QUEUE_HITS");
        if (hits < 0) {
            throw settings.invalid("QUEUE_HITS", "is " + hits + "; it must be at least 0");
        }
        return hits;
    }

    /** A complete entry, as a {@code domain-update} writes it. */
    public static DomainThrottle of(double window, long hits, double scale) {
        return new DomainThrottle(OptionalDouble.of(window), OptionalDouble.of(hits), OptionalDouble.of(scale));
    }

    /**
     * Whether crawlers apply the entry: {@code window} is given and above 0 (a fraction of a second counts), and
     * {@code hits} is given (none or fewer pause the domain). A window of 0 would let every request through, a negative
     * one means nothing; the domain keeps the default throttle instead.
     */
    public boolean applies() {
        return window.isPresent() && window.getAsDouble() > 0 && hits.isPresent();
    }

    /** The window crawlers apply, in seconds: as written, a longer one than {@link #LONGEST_WINDOW_SECONDS} as a year. */
    public double appliedWindow() {
        return Math.min(window.orElseThrow(() -> new IllegalStateException("the throttle entry has no window")),
                LONGEST_WINDOW_SECONDS);
    }

    /**
     * The hits a crawler allows per window, as the original computes them: {@code int(hits × clamp(scale, 0, 1))} when
     * there is a scale (the floor, for the non-negative counts a config holds); without one it compares the window's
     * count with {@code hits} as written, so that fractional hits allow the next whole number ({@code 2.5} allows 3).
     * {@code .nan} hits allow none, as the original's comparison with them is never true.
     *
     * @throws IllegalStateException when the entry has no {@code hits}
     */
    public long effectiveHits() {
        double given = hits.orElseThrow(() -> new IllegalStateException("the throttle entry has no hits"));
        return scale.isPresent() ? (long) (given * fitScale(scale.getAsDouble())) : (long) Math.ceil(given);
    }

    /** {@code scale} clamped to 0..1: 1.1 → 1.0, −1.9 → 0.0, 0.51 stays. */
    public static double fitScale(double scale) {
        return Math.max(0.0, Math.min(1.0, scale));
    }
}
