package org.scrapycluster.redismonitor.job;

import java.time.Duration;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread that repeats one step of the Redis monitor's work until closed, and rides out
 * outages: while Redis or Kafka is unreachable it backs off (0.5 s doubling to 10 s), and the
 * outage is logged once; any other error is logged and the step is repeated after a back-off.
 */
public final class Worker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /** One step of work. */
    @FunctionalInterface
    public interface Step {
        void run() throws OutboundUnavailableException, InterruptedException;
    }

    private final Step step;
    private final OutageReporter redisOutage;
    private final Backoff backoff = Backoff.standard();
    private final Thread thread;
    private volatile boolean stopped;

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
            } catch (RuntimeException e) {
                if (!stopped) {
                    LOG.error("{} failed; trying again", thread.getName(), e);
                    pause();
                }
            }
        }
    }

    private void pause() {
        try {
            backoff.pause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    /**
     * Stops after the step in progress: waits a moment for it to end on its own (a job being
     * handled is finished), then interrupts what is left (a pause, a blocking wait) and waits a
     * few seconds more.
     */
    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(GRACE.toMillis());
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(STOP_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
