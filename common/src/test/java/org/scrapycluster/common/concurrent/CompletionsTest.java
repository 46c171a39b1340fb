package org.scrapycluster.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

/** A future's failure as the stage after it sees it, and as the code reading it wants it. */
class CompletionsTest {

    @Test
    void theFailureADependentStageWrapsIsUnwrappedOnceAndAnyOtherIsItself() {
        IllegalStateException failure = new IllegalStateException("Redis is down");
        Throwable[] seen = new Throwable[1];
        CompletableFuture.failedFuture(failure).thenApply(value -> value).whenComplete((value, error) -> seen[0] = error);

        assertSame(failure, Completions.cause(seen[0]), "wrapped by thenApply");
        assertSame(failure, Completions.cause(failure), "not wrapped");
        CompletionException empty = new CompletionException("no cause", null);
        assertSame(empty, Completions.cause(empty), "a wrapper without a cause is the failure");
    }
}
