package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Times the requests of a connection, so that a client sending them a byte at a time holds no socket for long. It sits
 * after the HTTP codec: it sees request heads and bodies as they are decoded and every answer written.
 * <ul>
 * <li>A request's complete headers are due within {@code REST_HEADER_TIMEOUT}, counted from the connection's opening
 * or from the moment its last request was answered (so a kept-alive connection left idle is closed too); a request
 * answered before its body is in (refused on its headers, the body dropped as it arrives) starts the count once the
 * body is in. Then the connection is answered 408 ({@code header_timeout}) and closed; over HTTPS, one that has not
 * finished its TLS handshake is closed without the answer, which could not reach its client (counted all the same).
 * <li>A request's body is due in full within {@code REST_BODY_TIMEOUT} of its headers, each byte of it in time for the
 * idle timeout or not. Then a request still owed its answer is answered 408 ({@code body_timeout}), one already
 * answered (refused on its headers) has the connection closed without; a request pipelined behind others still owed
 * their answers gets the time again, as its client may be waiting for a {@code 100 Continue} that comes only after
 * them.
 * </ul>
 * Each 408 is in the envelope and counted as a refusal.
 */
final class RequestTimeouts extends ChannelDuplexHandler {

    private final long headerNanos;
    private final long bodyNanos;
    private final Dispatcher dispatcher;
    /** Requests whose head has come and whose answer is not written yet. */
    private int unanswered;
    /** Whether a request's head has come and not yet the end of its body. */
    private boolean bodyPending;
    private ScheduledFuture<?> headersDue;
    private ScheduledFuture<?> bodyDue;

    RequestTimeouts(Duration headerTimeout, Duration bodyTimeout, Dispatcher dispatcher) {
        this.headerNanos = headerTimeout.toNanos();
        this.bodyNanos = bodyTimeout.toNanos();
        this.dispatcher = dispatcher;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        headersDue = schedule(ctx, this::headersLate, headerNanos);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            unanswered++;
            headersDue = cancel(headersDue);
            bodyPending = !(msg instanceof LastHttpContent);
            if (bodyPending) {
                bodyDue = schedule(ctx, this::bodyLate, bodyNanos);
            }
        }
        if (msg instanceof LastHttpContent) {
            bodyPending = false;
            bodyDue = cancel(bodyDue);
            awaitHeadersIfIdle(ctx);
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!PipelineLimit.isFinal(msg)) {
            ctx.write(msg, promise);
            return;
        }
        ChannelPromise written = promise.unvoid();
        written.addListener(future -> {
            unanswered--;
            awaitHeadersIfIdle(ctx);
        });
        ctx.write(msg, written);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        headersDue = cancel(headersDue);
        bodyDue = cancel(bodyDue);
        ctx.fireChannelInactive();
    }

    /** Starts the time for the next request's headers when the connection owes no answer and is not sending a body. */
    private void awaitHeadersIfIdle(ChannelHandlerContext ctx) {
        if (unanswered == 0 && !bodyPending && ctx.channel().isActive()) {
            cancel(headersDue);
            headersDue = schedule(ctx, this::headersLate, headerNanos);
        }
    }

    private void headersLate(ChannelHandlerContext ctx) {
        headersDue = null;
        String reason = "No complete request headers within REST_HEADER_TIMEOUT.";
        if (HttpsOnly.handshaking(ctx)) { // counted and logged as any, the answer left out: it could not be read
            dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.HEADER_TIMEOUT, reason), null, null);
            ctx.close();
        } else {
            refuseAndClose(ctx, Refusal.HEADER_TIMEOUT, reason);
        }
    }

    private void bodyLate(ChannelHandlerContext ctx) {
        bodyDue = null;
        if (unanswered > 1) { // answers before it are owed: its 100 Continue, which the client may wait for, is not sent
            bodyDue = schedule(ctx, this::bodyLate, bodyNanos);
        } else if (unanswered == 0) {
            ctx.close();
        } else {
            refuseAndClose(ctx, Refusal.BODY_TIMEOUT, "No complete request body within REST_BODY_TIMEOUT.");
        }
    }

    private void refuseAndClose(ChannelHandlerContext ctx, Refusal refusal, String reason) {
        GatewayHandler.Ending.CLOSE.write(ctx, dispatcher.refusedBeforeRouting(new RefusedRequestException(refusal, reason), null, null));
    }

    private static ScheduledFuture<?> schedule(ChannelHandlerContext ctx, Consumer<ChannelHandlerContext> late, long nanos) {
        return ctx.executor().schedule(() -> late.accept(ctx), nanos, TimeUnit.NANOSECONDS);
    }

    /** Cancels {@code due} if there is one; null, what is left of it. */
    private static ScheduledFuture<?> cancel(ScheduledFuture<?> due) {
        if (due != null) {
            due.cancel(false);
        }
        return null;
    }
}
