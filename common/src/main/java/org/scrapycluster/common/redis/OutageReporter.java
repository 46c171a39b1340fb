package org.scrapycluster.common.redis;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisCommandInterruptedException;
import org.slf4j.Logger;

/**
 * Says once that a background Redis activity has started failing and once that it works again,
 * instead of logging every failed attempt of a task that retries every second.
 */
public final class OutageReporter {

    private final Logger log;
    private final String activity;
    private final AtomicBoolean down = new AtomicBoolean();
    private volatile String lastFailure;

    /**
     * @param log      where to report
     * @param activity what is failing, as the start of a sentence ("Statistics flush")
     */
    public OutageReporter(Logger log, String activity) {
        this.log = log;
        this.activity = activity;
    }

    /**
     * Records a failed attempt; logs a warning only for the first failure of an outage. A command
     * interrupted in its wait, or any failure of a thread that has been interrupted (Lettuce rethrows
     * an interrupted connect as a {@code RedisConnectionException}), is no sign of an outage but of
     * the task being stopped (its service is closing), and is only logged at debug level.
     */
    public void failed(Throwable cause) {
        if (cause instanceof RedisCommandInterruptedException || Thread.currentThread().isInterrupted()) {
            log.debug("{} interrupted: {}", activity, cause.toString());
            return;
        }
        lastFailure = String.valueOf(cause.getMessage());
        if (down.compareAndSet(false, true)) {
            log.warn("{} failed, Redis unavailable: {}; retrying in the background", activity, cause.toString());
        }
    }

    /** Records a successful attempt; logs when it ends an outage. */
    public void succeeded() {
        if (down.compareAndSet(true, false)) {
            log.info("{} works again, Redis is back", activity);
        }
    }

    /** Whether the last attempt failed. */
    public boolean isDown() {
        return down.get();
    }

    /**
     * What the last failed attempt was told, while the outage lasts (a health check's detail): Redis away, or answering
     * that it takes no writes ({@code OOM command not allowed when used memory > 'maxmemory'.}).
     */
    public Optional<String> lastFailure() {
        return isDown() ? Optional.ofNullable(lastFailure) : Optional.empty();
    }
}
