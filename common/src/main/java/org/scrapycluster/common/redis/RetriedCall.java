package org.scrapycluster.common.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.scrapycluster.common.concurrent.Completions;

/**
 * An asynchronous Redis call tried again after each failure, after a pause, for a write that must land once Redis
 * answers again (an outage, a failover, a refusal) and that stays worth making only for a while: an acknowledgement, the
 * links of a page whose lease is held. Whether to try again is asked after each failure, so the caller bounds the
 * attempts by its own clock and state. An outage is said once when the attempts begin failing and once when one goes
 * through ({@link OutageReporter}), with Redis's reason (its {@code OOM} at maxmemory).
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
     * @param outage  told of each attempt's outcome
     * @return completes as the first attempt that went through, or exceptionally as the last one when {@code again}
     *         said no
     */
    public static <T> CompletableFuture<T> make(Executor later, Supplier<CompletableFuture<T>> call, BooleanSupplier again,
            OutageReporter outage) {
        CompletableFuture<T> settled = new CompletableFuture<>();
        attempt(later, call, again, outage, settled);
        return settled;
    }

    private static <T> void attempt(Executor later, Supplier<CompletableFuture<T>> call, BooleanSupplier again,
            OutageReporter outage, CompletableFuture<T> settled) {
        CompletableFuture<T> attempt;
        try {
            attempt = call.get();
        } catch (RuntimeException e) {
            attempt = CompletableFuture.failedFuture(e);
        }
        attempt.whenComplete((answer, failure) -> {
            if (failure == null) {
                outage.succeeded();
                settled.complete(answer);
                return;
            }
            outage.failed(Completions.cause(failure));
            if (again.getAsBoolean()) {
                later.execute(() -> attempt(later, call, again, outage, settled));
            } else {
                settled.completeExceptionally(failure);
            }
        });
    }
}
