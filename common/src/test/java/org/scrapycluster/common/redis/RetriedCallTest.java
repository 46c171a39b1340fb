package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RetriedCallTest {

    /** Each attempt after the first a millisecond after the failure before it. */
    private static final Executor SOON = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger asked = new AtomicInteger();

    /** Fails the first {@code failures} attempts, then answers the attempt's number. */
    private CompletableFuture<Integer> failingFirst(int failures) {
        int attempt = attempts.incrementAndGet();
        return attempt <= failures ? CompletableFuture.failedFuture(new IllegalStateException("attempt " + attempt))
                : CompletableFuture.completedFuture(attempt);
    }

    @Test
    void aCallThatGoesThroughIsMadeOnceAndAgainIsNotAsked() throws Exception {
        assertEquals(1, RetriedCall.make(SOON, () -> failingFirst(0), () -> asked.incrementAndGet() > 0).get(10, TimeUnit.SECONDS));
        assertEquals(0, asked.get());
    }

    @Test
    void aFailedCallIsMadeAgainUntilItGoesThrough() throws Exception {
        assertEquals(4, RetriedCall.make(SOON, () -> failingFirst(3), () -> asked.incrementAndGet() > 0).get(10, TimeUnit.SECONDS));
        assertEquals(3, asked.get(), "asked after each failure");
    }

    @Test
    void theLastFailureIsToldOnceAgainSaysNo() {
        CompletableFuture<Integer> call = RetriedCall.make(SOON, () -> failingFirst(10), () -> asked.incrementAndGet() < 2);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertEquals("attempt 2", failed.getCause().getMessage());
    }

    @Test
    void aCallThatThrowsIsAFailedAttempt() {
        IllegalArgumentException thrown = new IllegalArgumentException("refused before Redis");
        CompletableFuture<Integer> call = RetriedCall.make(SOON, () -> {
            attempts.incrementAndGet();
            throw thrown;
        }, () -> false);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertSame(thrown, failed.getCause());
        assertEquals(1, attempts.get());
    }
}
