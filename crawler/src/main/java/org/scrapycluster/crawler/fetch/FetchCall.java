package org.scrapycluster.crawler.fetch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One fetch on its way: what to send, where, the slot and connection it holds, and its one completion; the
 * response read so far is its {@link ResponseProgress}, touched only on the connection's event loop.
 */
final class FetchCall {

    final OutgoingRequest outgoing;
    final FetchRequest request;
    final HostKey key;
    final String target;
    final HeaderMap sentHeaders;
    final CompletableFuture<FetchResult> future = new CompletableFuture<>();
    final long createdNanos = System.nanoTime();
    private final AtomicBoolean done = new AtomicBoolean();

    /** The host pool the call belongs to; set and read under the dispatcher's lock. */
    HostPool pool;
    volatile Channel channel;
    volatile boolean started;
    /** Set by a cancellation that found the call neither queued nor started: {@code start} ends it at once. */
    volatile boolean cancelRequested;
    volatile long startedNanos;
    volatile long connectedNanos;
    ScheduledFuture<?> totalTimer;
    boolean reused;
    boolean retried;
    final ResponseProgress response = new ResponseProgress();

    FetchCall(OutgoingRequest outgoing) {
        this.outgoing = outgoing;
        this.request = outgoing.request();
        this.key = outgoing.key();
        this.target = outgoing.target();
        this.sentHeaders = outgoing.sentHeaders();
    }

    boolean isDone() {
        return done.get();
    }

    /** Claims the call's one completion; false when it was already completed. */
    boolean markDone() {
        return done.compareAndSet(false, true);
    }

    /** The result from what was read: a success when {@code error} is null. */
    FetchResult result(FetchError error, String message) {
        long now = System.nanoTime();
        FetchTimings timings = new FetchTimings(
                Duration.ofNanos(started ? startedNanos - createdNanos : now - createdNanos),
                Duration.ofNanos(connectedNanos > 0 && !reused ? connectedNanos - startedNanos : 0),
                response.firstByte(), Duration.ofNanos(now - createdNanos), reused);
        return response.report(outgoing, error, message, timings);
    }
}
