package org.scrapycluster.common.concurrent;

import java.util.concurrent.CompletionException;

/** What a {@link java.util.concurrent.CompletableFuture} failed with, as a stage after it sees it. */
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
}
