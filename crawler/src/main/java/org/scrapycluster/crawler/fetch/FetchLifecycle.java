package org.scrapycluster.crawler.fetch;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;

/**
 * Takes a fetch from its slot to its result: a kept-alive or new connection, the exchange, the total timeout,
 * cancellation, and exactly one completion that gives the connection back (or closes it) and frees the slot
 * before the caller hears of the result.
 */
final class FetchLifecycle implements ExchangeEnd {

    private final EventLoopGroup group;
    private final long totalTimeoutNanos;
    private final Dispatcher dispatcher;
    private final Connector connector;
    private final Set<FetchCall> running = ConcurrentHashMap.newKeySet();

    FetchLifecycle(FetcherConfig config, EventLoopGroup group, Dispatcher dispatcher, Connector connector) {
        this.group = group;
        this.totalTimeoutNanos = config.totalTimeout().toNanos();
        this.dispatcher = dispatcher;
        this.connector = connector;
    }

    /** Takes {@code call} to its slot, which runs it now, or to the queue of those waiting; refuses it when closed. */
    void submit(FetchCall call) {
        switch (dispatcher.submit(call)) {
            case STARTED -> start(call);
            case QUEUED -> {
            }
            case CLOSED -> reject(call, FetchError.CANCELLED, "the fetcher is closed");
        }
    }

    /** Runs a call that was given a slot. */
    private void start(FetchCall call) {
        running.add(call);
        call.startedNanos = System.nanoTime();
        call.started = true;
        call.totalTimer = group.next().schedule(() -> timedOut(call), totalTimeoutNanos, TimeUnit.NANOSECONDS);
        if (call.cancelRequested) {
            finish(call, null, false, FetchError.CANCELLED, "cancelled by the caller");
            return;
        }
        Channel idle = dispatcher.takeIdle(call);
        if (idle != null) {
            call.reused = true;
            exchange(call, idle);
        } else {
            connect(call);
        }
    }

    /**
     * Ends {@code call} at its total timeout, named by how far it got, whichever timer comes first when they are as long
     * ({@code DOWNLOAD_TIMEOUT} sets all three): a connect timeout while it has no connection yet (its host's name being
     * looked up, the TCP connection, a proxy's tunnel or TLS still being made), a read timeout while no byte of the answer
     * came, so that a host that takes no connection, or one that takes it and says nothing, is named as such; else a
     * total timeout, an answer that came too slowly. How far it got is read on its connection's event loop, which writes it.
     */
    private void timedOut(FetchCall call) {
        long millis = TimeUnit.NANOSECONDS.toMillis(totalTimeoutNanos);
        Channel channel = call.channel;
        if (channel == null) {
            abort(call, FetchError.CONNECT_TIMEOUT, "no connection within " + millis + " ms");
            return;
        }
        channel.eventLoop().execute(() -> {
            if (call.response.unanswered()) {
                abort(call, FetchError.READ_TIMEOUT, "no answer within " + millis + " ms");
            } else {
                abort(call, FetchError.TOTAL_TIMEOUT, "not done within " + millis + " ms");
            }
        });
    }

    private void connect(FetchCall call) {
        CompletableFuture<Channel> connecting;
        try {
            connecting = connector.connect(call);
        } catch (RejectedExecutionException closing) {
            finish(call, null, false, FetchError.CANCELLED, "the fetcher was closed");
            return;
        }
        connecting.whenComplete((channel, failure) -> {
            if (failure != null) {
                finish(call, null, false, Failures.classify(failure), Failures.describe(failure));
            } else {
                call.connectedNanos = System.nanoTime();
                exchange(call, channel);
            }
        });
    }

    private void exchange(FetchCall call, Channel channel) {
        call.channel = channel;
        channel.eventLoop().execute(() -> {
            FetchHandler handler = channel.pipeline().get(FetchHandler.class);
            if (call.isDone()) {
                dispatcher.release(call.key, channel);
            } else if (handler != null) {
                handler.begin(call, this);
            } else if (!call.retried) {
                // closed since it was handed over (a server ending a kept-alive connection), and Netty has taken its
                // handlers off: nothing was sent, so any request may go out on a new connection
                retryOnNewConnection(call, channel);
            } else {
                finish(call, channel, false, FetchError.RESET, "connection closed before the request was sent");
            }
        });
    }

    @Override
    public void succeeded(FetchCall call, Channel channel, boolean keepAlive) {
        endedOn(channel, call, keepAlive, null, null);
    }

    @Override
    public void failed(FetchCall call, Channel channel, FetchError error, String message) {
        endedOn(channel, call, false, error, message);
    }

    /**
     * Finishes a call its connection ended. One ended from outside meanwhile (a cancel or the total timeout that came
     * as the connection was handed over, and did not see it) left the connection to nobody: it is closed.
     */
    private void endedOn(Channel channel, FetchCall call, boolean reusable, FetchError error, String message) {
        if (!finish(call, channel, reusable, error, message)) {
            channel.close();
        }
    }

    @Override
    public void retryOnNewConnection(FetchCall call, Channel stale) {
        stale.close();
        if (call.isDone()) {
            return;
        }
        call.retried = true;
        call.reused = false;
        call.channel = null;
        connect(call);
    }

    /** Ends a call the caller cancelled: withdrawn if it was waiting, aborted if it had started. */
    void cancel(FetchCall call, String message) {
        if (dispatcher.withdraw(call)) {
            reject(call, FetchError.CANCELLED, message);
            return;
        }
        call.cancelRequested = true;
        if (call.started) {
            abort(call, FetchError.CANCELLED, message);
        }
    }

    /** Completes a call that never got a slot. */
    void reject(FetchCall call, FetchError error, String message) {
        if (call.markDone()) {
            call.future.complete(call.result(error, message));
        }
    }

    /** Aborts every running call and waits, at most {@code wait}, until each has completed. */
    void abortAll(String message, Duration wait) {
        List<FetchCall> calls = List.copyOf(running);
        for (FetchCall call : calls) {
            abort(call, FetchError.CANCELLED, message);
        }
        try {
            CompletableFuture.allOf(calls.stream().map(c -> c.future).toArray(CompletableFuture[]::new))
                    .get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception ignored) {
            // completion is best effort on shutdown; the channels close with the event loops
        }
    }

    /**
     * Ends a started call from outside (its total timeout, a cancellation), on the event loop of its connection when it
     * has one: read once here, as a connection made meanwhile on its loop may be handed the call at any moment.
     */
    private void abort(FetchCall call, FetchError error, String message) {
        Channel channel = call.channel;
        if (channel == null) {
            finish(call, null, false, error, message);
        } else if (!channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(() -> abort(call, error, message));
        } else {
            FetchHandler handler = channel.pipeline().get(FetchHandler.class);
            if (handler != null) {
                handler.abandon(call);
            }
            finish(call, channel, false, error, message);
        }
    }

    /** Completes {@code call}, giving {@code channel} back or closing it; false when it was completed before. */
    private boolean finish(FetchCall call, Channel channel, boolean reusable, FetchError error, String message) {
        if (!call.markDone()) {
            return false;
        }
        if (call.totalTimer != null) {
            call.totalTimer.cancel(false);
        }
        FetchResult result = call.result(error, message);
        if (channel != null) {
            if (reusable) {
                dispatcher.release(call.key, channel);
            } else {
                channel.close();
            }
        }
        running.remove(call);
        List<FetchCall> next = dispatcher.finished(call);
        call.future.complete(result);
        next.forEach(this::startLater);
        return true;
    }

    /**
     * Starts a call that waited for the slot just freed, on an event loop rather than down this stack: a start that fails
     * at once (an address refused, a lookup the cache answers) finishes and frees the slot again, and thousands of waiting
     * calls would otherwise nest as deep and overflow the stack.
     */
    private void startLater(FetchCall call) {
        try {
            group.next().execute(() -> start(call));
        } catch (RejectedExecutionException closing) {
            finish(call, null, false, FetchError.CANCELLED, "the fetcher was closed");
        }
    }
}
