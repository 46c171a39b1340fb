package org.scrapycluster.common.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Gathers calls made from many threads into batch calls, with at most one batch out at a time: a call
 * made while none is out goes at once, alone; the calls made while one is out wait for it and then go
 * together (at most {@code maxBatch} to a batch). Nothing waits on a timer, so a lone call is as quick as
 * an unbatched one, and under load each batch call (a Redis round trip, a script run) settles many.
 *
 * @param <T> what one call carries
 * @param <R> what one call is answered
 */
public final class BatchedCalls<T, R> {

    private final Function<List<T>, CompletableFuture<List<R>>> batchCall;
    private final int maxBatch;
    private final Queue<Call<T, R>> waiting = new ArrayDeque<>();
    private boolean out;

    /**
     * @param batchCall sends a batch; completes with one answer per call, in order
     * @param maxBatch  the most calls in one batch
     */
    public BatchedCalls(Function<List<T>, CompletableFuture<List<R>>> batchCall, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("a batch must hold at least one call, got " + maxBatch);
        }
        this.batchCall = batchCall;
        this.maxBatch = maxBatch;
    }

    /** Makes one call; completes with its answer, or exceptionally when its batch failed. */
    public CompletableFuture<R> call(T request) {
        Call<T, R> call = new Call<>(request, new CompletableFuture<>());
        boolean send;
        synchronized (waiting) {
            waiting.add(call);
            send = !out;
            out = true;
        }
        if (send) {
            sendWaiting();
        }
        return call.answer();
    }

    /** Sends what waits as one batch, or notes that nothing is out when nothing waits. */
    private void sendWaiting() {
        List<Call<T, R>> batch = new ArrayList<>();
        synchronized (waiting) {
            while (batch.size() < maxBatch && !waiting.isEmpty()) {
                batch.add(waiting.poll());
            }
            if (batch.isEmpty()) {
                out = false;
                return;
            }
        }
        CompletableFuture<List<R>> answers;
        try {
            answers = batchCall.apply(batch.stream().map(Call::request).toList());
        } catch (RuntimeException e) {
            answers = CompletableFuture.failedFuture(e);
        }
        answers.whenComplete((answered, failure) -> {
            try {
                settle(batch, answered, failure);
            } finally {
                sendWaiting();
            }
        });
    }

    private static <T, R> void settle(List<Call<T, R>> batch, List<R> answered, Throwable failure) {
        if (failure == null && answered.size() != batch.size()) {
            failure = new IllegalStateException("a batch of " + batch.size() + " calls got " + answered.size() + " answers");
        }
        for (int i = 0; i < batch.size(); i++) {
            if (failure != null) {
                batch.get(i).answer().completeExceptionally(failure);
            } else {
                batch.get(i).answer().complete(answered.get(i));
            }
        }
    }

    private record Call<T, R>(T request, CompletableFuture<R> answer) {
    }
}
