package org.scrapycluster.common.service;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;

/**
 * The time a stopping service has for the waits of its stop, shared by them instead of a fixed timeout each
 * (docs/operations.md, "Stopping"). Its last {@code reserve} is kept for the waits that matter most at the end (a
 * crawler node's give-back of its leases, the Redis monitor's last writes): an ordinary wait gets at most its cap and
 * at most what is left before the reserve, a {@linkplain #reservedWaitFor reserved} one its cap and at most what is
 * left. When parts before them stall, they are cut short, not the last waits.
 *
 * <p>What a part gives up for want of time is {@linkplain #gaveUp noted}, and the service says it once, in one line,
 * when its stop ends ({@link #warnGivenUp}).
 */
public final class StopBudget {

    /** A clock that never jumps when the wall clock is set, for a stop's budget and other waits. */
    public static final InstantSource MONOTONIC = () -> Instant.ofEpochSecond(0, System.nanoTime());

    private final InstantSource clock;
    private final Instant end;
    private final Duration reserve;
    private final List<String> givenUp;

    private StopBudget(InstantSource clock, Instant end, Duration reserve, List<String> givenUp) {
        this.clock = clock;
        this.end = end;
        this.reserve = reserve;
        this.givenUp = givenUp;
    }

    /** The budget of a stop that begins now and has {@code total}, of which the last {@code reserve} is kept for the last waits. */
    public static StopBudget of(Duration total, Duration reserve, InstantSource clock) {
        if (reserve.isNegative() || reserve.compareTo(total) > 0) {
            throw new IllegalArgumentException("a reserve of " + reserve + " is not part of a budget of " + total);
        }
        return new StopBudget(clock, clock.instant().plus(total), reserve, new ArrayList<>());
    }

    /**
     * This budget as the waits of one part see it when {@code after} is kept, besides the reserve, for the ordinary
     * waits of the parts that stop after it: its ordinary waits are cut short that much earlier. What it gives up is
     * noted in this budget.
     */
    public StopBudget keeping(Duration after) {
        return new StopBudget(clock, end, reserve.plus(after), givenUp);
    }

    /** How long an ordinary wait may last, beginning now: its cap, or what is left before the reserve, whichever is shorter. */
    public Duration waitFor(Duration cap) {
        return shorter(cap, left().minus(reserve));
    }

    /** How long one of the last waits may last, beginning now: its cap, or what is left, whichever is shorter. */
    public Duration reservedWaitFor(Duration cap) {
        return shorter(cap, left());
    }

    /** Notes {@code what} a part did not do (a write, named with what becomes of it) for want of time. */
    public void gaveUp(String what) {
        synchronized (givenUp) {
            givenUp.add(what);
        }
    }

    /** What the parts did not do, in the order they gave up. */
    public List<String> givenUp() {
        synchronized (givenUp) {
            return List.copyOf(givenUp);
        }
    }

    /** Logs, in one WARN line that starts with {@code sentence}, what the parts did not do; nothing when they did it all. */
    public void warnGivenUp(Logger log, String sentence) {
        List<String> missed = givenUp();
        if (!missed.isEmpty()) {
            log.warn("{}: {}", sentence, String.join("; ", missed));
        }
    }

    private Duration left() {
        return Duration.between(clock.instant(), end);
    }

    private static Duration shorter(Duration cap, Duration left) {
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        return left.compareTo(cap) < 0 ? left : cap;
    }
}
