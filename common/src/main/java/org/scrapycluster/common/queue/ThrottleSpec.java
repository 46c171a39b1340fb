package org.scrapycluster.common.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * The throttle of one domain as one crawler node sees it: at most {@code limit} hand-outs in any
 * {@code windowSeconds}, cluster-wide for everyone sharing {@code throttleKey}; in moderated mode
 * also at least {@code windowSeconds / limit} apart. A limit of 0 pauses the domain.
 *
 * @param throttleKey   {@code [<spiderid>:][<public ip>:]<domain>} (see {@link ThrottleKeyStyle})
 * @param windowSeconds the sliding window ({@code QUEUE_WINDOW} or the domain's {@code window})
 * @param limit         hand-outs allowed per window ({@code QUEUE_HITS}, or the domain's
 *                      {@code int(hits * clamp(scale, 0, 1))})
 * @param moderated     whether hand-outs are spread evenly ({@code QUEUE_MODERATED}); has no effect
 *                      when the limit is 1, as in the original
 */
public record ThrottleSpec(String throttleKey, double windowSeconds, int limit, boolean moderated) {

    public ThrottleSpec {
        Objects.requireNonNull(throttleKey, "throttleKey");
        if (throttleKey.isEmpty()) {
            throw new IllegalArgumentException("a throttle key must not be empty");
        }
        if (!(windowSeconds > 0) || Double.isInfinite(windowSeconds)) {
            throw new IllegalArgumentException("a throttle window must be a positive number of seconds, got " + windowSeconds);
        }
        if (limit < 0) {
            throw new IllegalArgumentException("a throttle limit must be 0 or more, got " + limit);
        }
    }

    /**
     * The spec for {@code hits} per window scaled by {@code scale} (clamped to [0, 1]) and
     * truncated, as the original computes a ZooKeeper domain entry's limit (docs/compatibility.md §4.3).
     */
    public static ThrottleSpec of(String throttleKey, double windowSeconds, int hits, double scale, boolean moderated) {
        double clamped = Double.isNaN(scale) ? 0 : Math.min(1, Math.max(0, scale));
        return new ThrottleSpec(throttleKey, windowSeconds, (int) (hits * clamped), moderated);
    }

    /** {@code <throttlekey>:throttle_window}. */
    public String windowKey() {
        return Keyspace.THROTTLE_WINDOW.fill(throttleKey);
    }

    /** {@code <throttlekey>:throttle_time}. */
    public String timeKey() {
        return Keyspace.THROTTLE_TIME.fill(throttleKey);
    }

    /**
     * {@code <throttlekey>:throttle_pause} (additive): while it exists, nothing is handed out under
     * this throttle key — a server asked for a pause with {@code Retry-After}.
     */
    public String pauseKey() {
        return Keyspace.THROTTLE_PAUSE.fill(throttleKey);
    }

    /** Whether nothing may be handed out (limit 0). */
    public boolean paused() {
        return limit == 0;
    }

    /**
     * The least time between two hand-outs: the spacing when moderation applies, the whole window when the limit is 1;
     * none when hand-outs within a window may go together (not moderated, limit above 1) or none go (limit 0).
     */
    public Optional<Duration> leastGap() {
        return limit == 1 ? Optional.of(windowPerHandOut()) : spacing();
    }

    /** The least time between two hand-outs when moderation applies (moderated and limit above 1). */
    public Optional<Duration> spacing() {
        if (!moderated || limit <= 1) {
            return Optional.empty();
        }
        return Optional.of(windowPerHandOut());
    }

    /** The window shared by the limit's hand-outs: {@code window / limit}. */
    private Duration windowPerHandOut() {
        return Duration.ofNanos(Math.round(windowSeconds / limit * 1e9));
    }
}
