package org.scrapycluster.common.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * An asynchronous Redis call tried again after each failure, after a pause, for a write that must land once Redis
 * answers again (an outage, a failover, a refusal) and that stays worth making only for a while: an acknowledgement, the
 * links of a page whose lease is held. Whether to try again is asked after each failure, so the caller bounds the
 * attempts by its own clock and state.
 */
public final class RetriedCall {

    private RetriedCall() {
    }

    /**
     * Makes {@code call}, and again after each failure while {@code again} says so.
     *
     * @param later runs each attempt after the first, after the pause between them: in service
     *              {@code CompletableFuture.delayedExecutor(interval)}, in a test one it runs by hand
     * @param again asked after each failure (on the thread that saw it): whether to try once more
     * @return completes as the first attempt that went through, or exceptionally as the last one when {@code again}
     *         said no
     */
    public static <T> CompletableFuture<T> make(Executor later, Supplier<CompletableFuture<T>> call, BooleanSupplier again) {
        CompletableFuture<T> settled = new CompletableFuture<>();
        attempt(later, call, again, settled);
        return settled;
    }

    private static <T> void attempt(Executor later, Supplier<CompletableFuture<T>> call, BooleanSupplier again,
            CompletableFuture<T> settled) {
        CompletableFuture<T> attempt;
        try {
            attempt = call.get();
        } catch (RuntimeException e) {
            attempt = CompletableFuture.failedFuture(e);
        }
        attempt.whenComplete((answer, failure) -> {
            if (failure == null) {
                settled.complete(answer);
            } else if (again.getAsBoolean()) {
                later.execute(() -> attempt(later, call, again, settled));
            } else {
                settled.completeExceptionally(failure);
            }
        });
    }
}
