package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** How a ticker stops: a run in progress is interrupted, and waited for at most what the stopping service grants. */
class TickerTest {

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
