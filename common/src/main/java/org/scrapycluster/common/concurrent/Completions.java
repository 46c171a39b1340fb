package org.scrapycluster.common.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** What a {@link CompletableFuture} failed with, as a stage after it sees it, and on which thread a stage after it runs. */
public final class Completions {

    private Completions() {
    }

    /**
     * The failure itself: {@code failure} without the {@link CompletionException} a dependent stage ({@code thenApply},
     * {@code whenComplete}, {@code exceptionallyCompose} after one) wraps it in; {@code failure} when it is not wrapped.
     */
    public static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * {@code next} after {@code future}: on the thread at hand when {@code future} is already complete (a worker, in the
     * chains that use this), else on {@code executor}, never on the thread that completes it later (a network thread
     * of the fetcher, the Redis client or Kafka's producer), which a {@code next} that blocks or works long would hold
     * up for everything else that thread carries.
     */
    public static <T, U> CompletableFuture<U> thenOn(CompletableFuture<T> future, Function<? super T, ? extends CompletableFuture<U>> next,
            Executor executor) {
        return future.isDone() ? future.thenCompose(next) : future.thenComposeAsync(next, executor);
    }
}
