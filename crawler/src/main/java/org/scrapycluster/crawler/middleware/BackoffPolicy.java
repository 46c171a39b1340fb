package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Back-off when a server says it is overwhelmed: a 429, or a 503 with {@code Retry-After}, pauses the
 * domain (cluster-wide, under its throttle key) for the time the server asks — {@code RETRY_AFTER_DEFAULT}
 * when a 429 does not say, at most {@code RETRY_AFTER_MAX} — and the request is retried. A {@code Retry-After} that
 * asks for no wait says nothing ({@link RetryAfter}): a 429 with {@code Retry-After: 0} is paused for the default, and
 * a 503 with it is a 503 without the header.
 *
 * @param enabled        {@code RETRY_AFTER_ENABLED}
 * @param defaultPause   {@code RETRY_AFTER_DEFAULT}
 * @param maxPause       {@code RETRY_AFTER_MAX}
 */
public record BackoffPolicy(boolean enabled, Duration defaultPause, Duration maxPause) {

    /** How long to pause the domain after a response with {@code status} and {@code retryAfter}; empty for no pause. */
    public Optional<Duration> pauseFor(int status, String retryAfter, Instant now) {
        if (!enabled) {
            return Optional.empty();
        }
        Optional<Duration> asked = RetryAfter.parse(retryAfter, now);
        if (status == 429) {
            return Optional.of(cap(asked.orElse(defaultPause)));
        }
        if (status == 503) {
            return asked.map(this::cap);
        }
        return Optional.empty();
    }

    private Duration cap(Duration pause) {
        return pause.compareTo(maxPause) > 0 ? maxPause : pause;
    }
}
