package org.scrapycluster.redismonitor.job;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread that repeats one step of the Redis monitor's work until {@linkplain #closeAll stopped}, and rides out
 * outages: while Redis or Kafka is unreachable it backs off (0.5 s doubling to 10 s), and the
 * outage is logged once; any other failure is logged and the step is repeated after a back-off, but for an error the
 * monitor cannot go on from (out of memory, a class its jar lacks), which ends the process ({@link FatalExit}).
 */
public final class Worker {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /** The worker whose thread this is, for {@link #idle}. */
    private static final ThreadLocal<Worker> CURRENT = new ThreadLocal<>();

    /** One step of work. */
    @FunctionalInterface
    public interface Step {
        void run() throws OutboundUnavailableException, InterruptedException;
    }

    /** A step's wait for work that an interrupt ends cleanly: a pause between scans, a back-off. */
    @FunctionalInterface
    public interface Wait {
        void run() throws InterruptedException;
    }

    private final Step step;
    private final OutageReporter redisOutage;
    private final Backoff backoff = Backoff.standard();
    private final Thread thread;
    private final Object waitState = new Object();
    private volatile boolean stopped;
    /** In a wait for work ({@link #idle}); guarded by {@link #waitState}. */
    private boolean waiting;
    /** Interrupted by the stop in a wait for work; guarded by {@link #waitState}. */
    private boolean woken;

    /**
     * @param name        the thread's name
     * @param step        what to repeat
     * @param redisOutage where Redis outages of this work are reported
     */
    public Worker(String name, Step step, OutageReporter redisOutage) {
        this.step = step;
        this.redisOutage = redisOutage;
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
    }

    /** The liveness check of the worker's loop: up while its thread runs. */
    public Health liveness() {
        return Health.ofLoop(thread);
    }

    public void start() {
        thread.start();
    }

    private void loop() {
        CURRENT.set(this);
        while (!stopped) {
            try {
                step.run();
                redisOutage.succeeded();
                backoff.reset();
            } catch (InterruptedException e) {
                return;
            } catch (RedisException e) {
                if (!stopped) {
                    redisOutage.failed(e);
                    pause();
                }
            } catch (OutboundUnavailableException e) {
                pause();
            } catch (RuntimeException | Error e) {
                if (FatalExit.endsTheService(e)) {
                    FatalExit.exit(LOG, "The Redis monitor's " + thread.getName(), e, "and the jobs in hand, not deleted, are handled again");
                    return;
                }
                if (!stopped) {
                    LOG.error("{} failed; trying again", thread.getName(), e);
                    pause();
                }
            }
        }
    }

    private void pause() {
        try {
            idle(backoff::pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    /**
     * Runs {@code wait}, a step's wait for work, which a stop interrupts at once, where it lets a job in hand finish
     * ({@link #closeAll}); on a thread that is no worker's, it is just run. A wait that ends as the stop interrupts it
     * ends as it would have, and the step goes on without the interrupt.
     *
     * @throws InterruptedException when the worker is stopping already, or the wait was interrupted
     */
    public static void idle(Wait wait) throws InterruptedException {
        Worker worker = CURRENT.get();
        if (worker == null) {
            wait.run();
            return;
        }
        synchronized (worker.waitState) {
            if (worker.stopped) {
                throw new InterruptedException(worker.thread.getName() + " is stopping");
            }
            worker.waiting = true;
        }
        try {
            wait.run();
        } finally {
            synchronized (worker.waitState) {
                worker.waiting = false;
                if (worker.woken) {
                    Thread.interrupted(); // the stop's, meant for the wait only
                }
            }
        }
    }

    /** No step starts after this; a wait for work in progress is interrupted. */
    private void stop() {
        synchronized (waitState) {
            stopped = true;
            if (waiting) {
                woken = true;
                thread.interrupt();
            }
        }
    }

    /**
     * Stops {@code workers} together, each after its step in progress, within what {@code budget} grants their waits
     * (docs/operations.md, "Stopping"): none starts another step once this begins, and one waiting for work (a pause
     * between scans, a back-off: {@link #idle}) is interrupted at once; the others are waited for a
     * moment (at most 2 s) to end on their own (a job being handled is finished), then what is left (a job still in
     * hand) is interrupted and waited for at most 10 s more. A worker whose step ignores the interrupt past that is
     * left to end alone on its daemon thread.
     */
    public static void closeAll(List<Worker> workers, StopBudget budget) {
        workers.forEach(Worker::stop);
        try {
            joinAll(workers, budget.waitFor(GRACE));
            workers.stream().filter(worker -> worker.thread.isAlive()).forEach(worker -> worker.thread.interrupt());
            joinAll(workers, budget.waitFor(STOP_TIMEOUT));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for {@code workers}' threads to end, at most {@code wait} for them all. */
    private static void joinAll(List<Worker> workers, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Worker worker : workers) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            worker.thread.join(Duration.ofNanos(left));
        }
    }
}
