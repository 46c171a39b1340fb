package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * How a ticker stops: a run in progress is interrupted, and waited for at most what the stopping service grants; and a
 * periodic run that fails does not stop the task.
 */
class TickerTest {

    @Test
    void aPeriodicTaskWhoseRunsFailRunsAgainAtItsNextTick() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(1);
        try (Ticker ticker = new Ticker("ticker-test-failing")) {
            ticker.every(Duration.ZERO, Duration.ofMillis(5), () -> {
                switch (runs.incrementAndGet()) {
                    case 1 -> throw new IllegalStateException("a bug");
                    case 2 -> throw new StackOverflowError();
                    default -> third.countDown();
                }
            });
            assertTrue(third.await(10, TimeUnit.SECONDS), "runs: " + runs.get());
        }
    }

    @Test
    void aTaskRunOnceThatFailsIsLoggedRatherThanLeftInItsFutureAndTheNextOneRuns() throws Exception {
        try (Ticker ticker = new Ticker("ticker-test-once")) {
            ticker.soon(() -> {
                throw new StackOverflowError();
            }).get(10, TimeUnit.SECONDS);
            AtomicInteger ran = new AtomicInteger();
            ticker.soon(ran::incrementAndGet).get(10, TimeUnit.SECONDS);
            assertEquals(1, ran.get());
        }
    }

    @Test
    void aRunThatIgnoresTheInterruptIsNotWaitedForPastTheWaitGiven() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Ticker ticker = new Ticker("ticker-test-stubborn");
        ticker.soon(() -> {
            running.countDown();
            awaitIgnoringInterrupts(released);
            ended.countDown();
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));

        ticker.close(Duration.ZERO);

        assertEquals(1, ended.getCount(), "the stop went on while the run was still in progress");
        released.countDown();
        assertTrue(ended.await(10, TimeUnit.SECONDS), "the run ends alone");
    }

    @Test
    void aRunThatEndsOnTheInterruptHasEndedWhenTheTickerIsClosed() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Ticker ticker = new Ticker("ticker-test-willing");
        ticker.soon(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                ended.countDown();
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));

        ticker.close(Duration.ofMinutes(1));

        assertEquals(0, ended.getCount(), "the run was interrupted, and waited for");
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // a run that does not stop when interrupted: a call that cannot be cut short
            }
        }
    }
}
