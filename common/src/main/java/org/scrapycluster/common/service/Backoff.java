package org.scrapycluster.common.service;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Exponential back-off for reconnecting to Redis, Kafka or ZooKeeper, as the original retries
 * (docs/compatibility.md §2.1): the n-th wait is {@code multiplier × 2^n} capped at {@code max}, from 0.5 s up to 10 s
 * by default. Each wait is drawn between half of that and all of it, so that nodes which lost a
 * server together do not all come back at the same instant. One instance serves one retry loop.
 */
public final class Backoff {

    private final Duration multiplier;
    private final Duration max;
    private final RandomGenerator random;
    private int attempts;

    public Backoff(Duration multiplier, Duration max, RandomGenerator random) {
        if (multiplier.isNegative() || multiplier.isZero() || max.compareTo(multiplier) < 0) {
            throw new IllegalArgumentException("back-off needs 0 < multiplier <= max, not " + multiplier + " and " + max);
        }
        this.multiplier = multiplier;
        this.max = max;
        this.random = random;
    }

    /** 0.5 s multiplier, 10 s cap. */
    public static Backoff standard() {
        return standard(RandomGenerator.getDefault());
    }

    /** 0.5 s multiplier, 10 s cap, its waits drawn from {@code random}. */
    public static Backoff standard(RandomGenerator random) {
        return new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), random);
    }

    /** The next wait, counting one more failed attempt. */
    public Duration nextDelay() {
        attempts++;
        return delayAfter(attempts);
    }

    /** The wait after {@code failed} attempts in a row (one or more), drawn as {@link #nextDelay} draws it; counts nothing. */
    public Duration delayAfter(long failed) {
        long ceiling = max.toNanos();
        long nanos = multiplier.toNanos();
        for (long i = 0; i < failed && nanos < ceiling; i++) {
            nanos *= 2;
        }
        long full = Math.min(nanos, ceiling);
        long half = full / 2;
        return Duration.ofNanos(half + random.nextLong(full - half + 1));
    }

    /** Sleeps for {@link #nextDelay()}; an interrupt (the service is closing) ends the wait at once. */
    public void pause() throws InterruptedException {
        Thread.sleep(nextDelay());
    }

    /**
     * Calls {@code attempt} until it returns, waiting {@link #nextDelay()} through {@code pause} after
     * each failure of type {@code retryOn} (any other exception ends the loop); {@code firstFailure}
     * hears of the first one only, so that an outage is said once. {@code pause} ends the loop by
     * throwing, e.g. when the caller is closing.
     */
    public <T, E extends RuntimeException> T retry(Class<E> retryOn, Supplier<T> attempt, Consumer<E> firstFailure,
            Consumer<Duration> pause) {
        while (true) {
            try {
                return attempt.get();
            } catch (RuntimeException e) {
                if (!retryOn.isInstance(e)) {
                    throw e;
                }
                if (attempts == 0) {
                    firstFailure.accept(retryOn.cast(e));
                }
                pause.accept(nextDelay());
            }
        }
    }

    /** Failed attempts since the last success. */
    public int attempts() {
        return attempts;
    }

    /** Starts over after a success. */
    public void reset() {
        attempts = 0;
    }
}
