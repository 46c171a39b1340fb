package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.LoggerFactory;

/**
 * The stop of the workers: one waiting for work is interrupted at once, while one with a job in hand is let finish it;
 * and a worker whose step overflowed its stack goes on.
 */
class WorkerTest {

    /**
     * The idle worker ends while the busy one is still in its job, which is let go only then: had the stop waited out
     * its grace for the idle one too, it would have interrupted both at its end, the job with them.
     */
    @Test
    void aWorkerWaitingForWorkIsInterruptedAtOnceAndAJobInHandIsFinished() throws InterruptedException {
        CountDownLatch inJob = new CountDownLatch(1);
        CountDownLatch jobMayEnd = new CountDownLatch(1);
        AtomicReference<String> job = new AtomicReference<>("not done");
        Worker busy = new Worker("test-busy", () -> {
            inJob.countDown();
            try {
                jobMayEnd.await();
                job.set("done");
            } catch (InterruptedException e) {
                job.set("interrupted");
            }
        }, new OutageReporter(LoggerFactory.getLogger(WorkerTest.class), "busy"));
        CountDownLatch neverCounted = new CountDownLatch(1);
        Worker idle = new Worker("test-idle", () -> Worker.idle(neverCounted::await), new OutageReporter(LoggerFactory.getLogger(WorkerTest.class), "idle"));
        busy.start();
        idle.start();
        inJob.await();

        Thread stopping = Thread.ofPlatform().start(() -> Worker.closeAll(List.of(busy, idle),
                StopBudget.of(Duration.ofMinutes(1), Duration.ZERO, StopBudget.MONOTONIC)));
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> !idle.liveness().isUp());
        jobMayEnd.countDown();
        stopping.join();

        assertEquals("done", job.get());
        assertFalse(busy.liveness().isUp(), "the busy worker ended after its job");
    }

    /** A stack overflow in a step, perhaps one job's doing, is logged and the step repeated, as a bug's exception is. */
    @Test
    void aStepThatOverflowsItsStackIsRepeatedAndTheWorkerLives() {
        AtomicInteger steps = new AtomicInteger();
        Worker overflowing = new Worker("test-overflowing", () -> {
            if (steps.incrementAndGet() == 1) {
                throw new StackOverflowError();
            }
            Worker.idle(() -> Thread.sleep(Long.MAX_VALUE));
        }, new OutageReporter(LoggerFactory.getLogger(WorkerTest.class), "overflowing"));
        overflowing.start();

        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> steps.get() == 2);
        assertTrue(overflowing.liveness().isUp());
        Worker.closeAll(List.of(overflowing), StopBudget.of(Duration.ofMinutes(1), Duration.ZERO, StopBudget.MONOTONIC));
    }

    /** Off a worker's thread, a wait is just run. */
    @Test
    void aWaitOffAWorkersThreadIsJustRun() throws InterruptedException {
        AtomicReference<String> ran = new AtomicReference<>();
        Worker.idle(() -> ran.set("ran"));
        assertEquals("ran", ran.get());
    }
}
