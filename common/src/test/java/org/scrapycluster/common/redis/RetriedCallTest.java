package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RetriedCallTest {

    /** Each attempt after the first a millisecond after the failure before it. */
    private static final Executor SOON = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger asked = new AtomicInteger();
    private final OutageReporter outage = new OutageReporter(LoggerFactory.getLogger(RetriedCallTest.class), "The test's write");

    /** Fails the first {@code failures} attempts, then answers the attempt's number. */
    private CompletableFuture<Integer> failingFirst(int failures) {
        int attempt = attempts.incrementAndGet();
        return attempt <= failures ? CompletableFuture.failedFuture(new IllegalStateException("attempt " + attempt))
                : CompletableFuture.completedFuture(attempt);
    }

    @Test
    void aCallThatGoesThroughIsMadeOnceAndAgainIsNotAsked() throws Exception {
        assertEquals(1, RetriedCall.make(SOON, () -> failingFirst(0), () -> asked.incrementAndGet() > 0, outage).get(10, TimeUnit.SECONDS));
        assertEquals(0, asked.get());
    }

    @Test
    void aFailedCallIsMadeAgainUntilItGoesThrough() throws Exception {
        assertEquals(4, RetriedCall.make(SOON, () -> failingFirst(3), () -> asked.incrementAndGet() > 0, outage).get(10, TimeUnit.SECONDS));
        assertEquals(3, asked.get(), "asked after each failure");
        assertFalse(outage.isDown(), "told that it went through");
    }

    @Test
    void theLastFailureIsToldOnceAgainSaysNo() {
        CompletableFuture<Integer> call = RetriedCall.make(SOON, () -> failingFirst(10), () -> asked.incrementAndGet() < 2, outage);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertEquals("attempt 2", failed.getCause().getMessage());
        assertEquals(Optional.of("attempt 2"), outage.lastFailure(), "told of each failure");
    }

    @Test
    void aCallThatThrowsIsAFailedAttempt() {
        IllegalArgumentException thrown = new IllegalArgumentException("refused before Redis");
        CompletableFuture<Integer> call = RetriedCall.make(SOON, () -> {
            attempts.incrementAndGet();
            throw thrown;
        }, () -> false, outage);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertSame(thrown, failed.getCause());
        assertEquals(1, attempts.get());
    }
}
