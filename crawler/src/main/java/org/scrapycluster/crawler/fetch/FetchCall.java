package org.scrapycluster.crawler.fetch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One fetch on its way: what to send, where, the slot and connection it holds, the response read so far,
 * and its one completion. Fields about the exchange are touched only on the connection's event loop.
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
    ScheduledFuture<?> readTimer;
    boolean reused;
    boolean retried;

    long sentNanos;
    long firstByteNanos;
    long lastReadNanos;
    int status;
    String reason = "";
    /** The response headers as Netty read them: each byte one char (ISO-8859-1). */
    HeaderMap headers = HeaderMap.empty();
    boolean keepAlive;
    BodyBuffer body;

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

    /** Whether any part of a response arrived. */
    boolean responseStarted() {
        return status != 0;
    }

    /** The result from what was read: a success when {@code error} is null. */
    FetchResult result(FetchError error, String message) {
        long now = System.nanoTime();
        FetchTimings timings = new FetchTimings(
                Duration.ofNanos(started ? startedNanos - createdNanos : now - createdNanos),
                Duration.ofNanos(connectedNanos > 0 && !reused ? connectedNanos - startedNanos : 0),
                Duration.ofNanos(firstByteNanos > 0 ? firstByteNanos - sentNanos : 0),
                Duration.ofNanos(now - createdNanos), reused);
        return ResponseReport.of(outgoing, status, reason, headers, body == null ? null : body.toArray(), error, message,
                timings);
    }
}
