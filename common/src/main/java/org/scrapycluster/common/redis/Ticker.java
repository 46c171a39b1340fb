package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The daemon thread of a background Redis activity (flushing statistics, heartbeats, lease
 * reaping, lock renewal): runs its tasks periodically, and stops them on close.
 */
public final class Ticker implements AutoCloseable {

    /** The longest {@link #close()} waits for a run in progress. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private final ScheduledExecutorService timer;

    /** @param threadName the thread's name, as it appears in thread dumps */
    public Ticker(String threadName) {
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(threadName).daemon().factory());
    }

    /** Runs {@code task} after {@code initialDelay}, then {@code period} after each run ends. */
    public ScheduledFuture<?> every(Duration initialDelay, Duration period, Runnable task) {
        return timer.scheduleWithFixedDelay(task, initialDelay.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} once, as soon as the thread is free. */
    public Future<?> soon(Runnable task) {
        return timer.submit(task);
    }

    /** {@link #close(Duration) Stops} the tasks, waiting at most {@link #STOP_TIMEOUT} for a run in progress. */
    @Override
    public void close() {
        close(STOP_TIMEOUT);
    }

    /**
     * Stops the tasks, interrupting a run in progress, and waits at most {@code wait} for it to end: a stopping service
     * gives what its stop's budget has left (docs/operations.md, "Stopping"); a run that ignores the interrupt is left
     * to end alone on the daemon thread.
     */
    public void close(Duration wait) {
        timer.shutdownNow();
        try {
            timer.awaitTermination(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
