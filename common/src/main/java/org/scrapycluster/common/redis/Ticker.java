package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.common.service.FatalExit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon thread of a background Redis activity (flushing statistics, heartbeats, lease
 * reaping, lock renewal): runs its tasks periodically or once, and stops them on close. A run that fails is logged, and a
 * periodic task runs again at its next tick, where an executor would stop it for good without a word (a lease keeper that
 * no longer renews, a heartbeat that stops); an error the service cannot go on from ends the process
 * ({@link FatalExit}).
 */
public final class Ticker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);

    /** The longest {@link #close()} waits for a run in progress. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private final ScheduledExecutorService timer;
    private final String threadName;

    /** @param threadName the thread's name, as it appears in thread dumps */
    public Ticker(String threadName) {
        this.threadName = threadName;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(threadName).daemon().factory());
    }

    /** Runs {@code task} after {@code initialDelay}, then {@code period} after each run ends. */
    public ScheduledFuture<?> every(Duration initialDelay, Duration period, Runnable task) {
        return timer.scheduleWithFixedDelay(() -> guarded(task, "; it runs again at its next tick"), initialDelay.toMillis(),
                period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} once, as soon as the thread is free; a failure is logged as a periodic run's is. */
    public Future<?> soon(Runnable task) {
        return timer.submit(() -> guarded(task, ""));
    }

    /** One run of {@code task}: a failure is logged, unless the ticker is stopping, with what {@code then} follows. */
    private void guarded(Runnable task, String then) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            if (FatalExit.endsTheService(e)) {
                FatalExit.exit(LOG, "The " + threadName + " thread", e, "and the service hands back what it holds as at any stop");
                throw e;
            }
            if (!timer.isShutdown()) {
                LOG.atError().setCause(e).addKeyValue("thread", threadName).log("A run on " + threadName + " failed" + then);
            }
        }
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
