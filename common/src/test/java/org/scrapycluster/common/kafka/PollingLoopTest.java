package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.apache.kafka.common.KafkaException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PollingLoopTest {

    private final PollingLoop loop = new PollingLoop();

    @Test
    void aStopIsAskedForOnce() {
        assertFalse(loop.stopping());
        assertDoesNotThrow(loop::check);
        assertTrue(loop.requestStop());
        assertFalse(loop.requestStop(), "the second request is not the first");
        assertTrue(loop.stopping());
        assertThrows(PollingLoop.Stopping.class, loop::check);
        assertThrows(PollingLoop.Stopping.class, () -> loop.pause(Duration.ZERO));
    }

    @Test
    void aThreadPausingForAnHourEndsAtOnceWhenStopped() throws Exception {
        CompletableFuture<Throwable> unwound = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                loop.pause(Duration.ofHours(1));
                unwound.complete(null);
            } catch (RuntimeException e) {
                unwound.complete(e);
            }
        });
        loop.requestStop();
        assertTrue(loop.awaitEnd(thread, null, Duration.ofMinutes(1)));
        assertEquals(PollingLoop.Stopping.class, unwound.get().getClass());
    }

    /**
     * The race of a Ctrl-C: the thread saw the stop and began to close its clients before the stop's interrupt came;
     * the interrupt would make Kafka's clients give up their close with an ERROR and an {@code InterruptException}.
     */
    @Test
    void aThreadClosingItsClientsIsNotInterruptedByTheStop() throws Exception {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        loop.requestStop();
        // a client's close, which an interrupt cuts short
        Thread thread = Thread.ofPlatform().start(() -> loop.release(waitingFor(closing, closed, interrupted)));
        closing.await();

        CompletableFuture<Boolean> ended = endAwaited(thread);
        closed.countDown();

        assertTrue(ended.get());
        assertFalse(interrupted.get(), "the close was not interrupted");
    }

    /** A batch under way when the stop comes is let finish, not interrupted, so that its commit is not lost. */
    @Test
    void aUnitUnderWayRunsToItsEndWhenStopped() throws Exception {
        assertRunsToItsEndWhenStopped(rest -> rest);
    }

    /** A unit that waits out an outage is interrupted at once: the stop does not wait for the outage to end. */
    @Test
    void aUnitThatWaitsIsInterruptedAtOnce() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        Thread thread = Thread.ofPlatform().start(() -> loop.runToEnd(() -> loop.waitsOut(() -> {
            waiting.countDown();
            try {
                Thread.sleep(Duration.ofHours(1));
            } catch (InterruptedException e) {
                // the stop's interrupt: the unit is given up
            }
        })));
        waiting.await();

        loop.requestStop();
        assertTrue(loop.awaitEnd(thread, null, Duration.ofHours(2)), "ended well before the hour's grace");
    }

    /** A unit that waited out an outage and goes on well is let finish by a stop that comes after the wait. */
    @Test
    void aUnitThatWaitedRunsToItsEndWhenStoppedAfterTheWait() throws Exception {
        assertRunsToItsEndWhenStopped(rest -> () -> {
            loop.waitsOut(() -> { });
            rest.run();
        });
    }

    /** Asserts that a unit {@code shape} makes of a rest that waits for the test is let finish by a stop during that rest. */
    private void assertRunsToItsEndWhenStopped(UnaryOperator<Runnable> shape) throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Runnable unit = shape.apply(waitingFor(running, finish, interrupted));
        Thread thread = Thread.ofPlatform().start(() -> loop.runToEnd(unit));
        running.await();

        loop.requestStop();
        CompletableFuture<Boolean> ended = endAwaited(thread);
        finish.countDown();

        assertTrue(ended.get());
        assertFalse(interrupted.get(), "the unit was not interrupted");
    }

    /** A unit that takes longer than half the stop's timeout is interrupted then. */
    @Test
    void aUnitLongerThanTheGraceIsInterrupted() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        Thread thread = Thread.ofPlatform().start(() -> loop.runToEnd(() -> {
            running.countDown();
            try {
                Thread.sleep(Duration.ofHours(1));
            } catch (InterruptedException e) {
                // the stop's interrupt, once the grace has passed
            }
        }));
        running.await();

        loop.requestStop();
        assertTrue(loop.awaitEnd(thread, null, Duration.ofMillis(400)));
    }

    /** Work that tells {@code started}, then waits for {@code done}, noting whether an interrupt came meanwhile. */
    private static Runnable waitingFor(CountDownLatch started, CountDownLatch done, AtomicBoolean interrupted) {
        return () -> {
            started.countDown();
            try {
                done.await();
                interrupted.set(Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        };
    }

    /** Waits for the end of {@code thread} from another thread, as a stop does: its outcome, once that one waits. */
    private CompletableFuture<Boolean> endAwaited(Thread thread) {
        CompletableFuture<Boolean> ended = new CompletableFuture<>();
        Thread stopping = Thread.ofPlatform().start(() -> ended.complete(loop.awaitEnd(thread, null, Duration.ofMinutes(1))));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !thread.isAlive() || stopping.getState() == Thread.State.TIMED_WAITING);
        return ended;
    }

    @Test
    void anInterruptBeforeTheReleaseIsClearedForItAndSetAgainAfter() {
        AtomicBoolean interruptedDuringRelease = new AtomicBoolean(true);
        Thread.currentThread().interrupt();
        try {
            loop.release(() -> interruptedDuringRelease.set(Thread.currentThread().isInterrupted()));
            assertFalse(interruptedDuringRelease.get());
        } finally {
            assertTrue(Thread.interrupted(), "set again");
        }
    }

    @Test
    void aClientIsCreatedAgainUntilKafkaTakesIt() {
        AtomicInteger attempts = new AtomicInteger();
        String client = loop.createClient("producer", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new KafkaException("no broker");
            }
            return "client";
        }, LoggerFactory.getLogger(PollingLoopTest.class));
        assertEquals("client", client);
        assertEquals(3, attempts.get());
    }

    @Test
    void noClientIsCreatedOnceStopped() {
        loop.requestStop();
        assertThrows(PollingLoop.Stopping.class, () -> loop.createClient("consumer", () -> "client", LoggerFactory.getLogger(PollingLoopTest.class)));
    }
}
