package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Closes a connection whose request body has not arrived in full within {@code REST_BODY_TIMEOUT} of its headers: a
 * client sending a body a byte at a time, each byte in time for the idle timeout, holds no socket for long, whether
 * the body is read or, refused on its headers, dropped as it arrives. A request still owed its answer is answered 408
 * in the envelope and counted as a refusal ({@code body_timeout}); a request already answered (refused on its
 * headers) has the connection closed without. The time of a request pipelined behind others still owed their
 * answers starts again: its client may be waiting for a {@code 100 Continue} that comes only after those answers.
 * It sits after the HTTP codec: it sees request heads and bodies as they are decoded and every answer written.
 */
final class BodyTimeout extends ChannelDuplexHandler {

    private final long timeoutNanos;
    private final Dispatcher dispatcher;
    private int unanswered;
    private ScheduledFuture<?> deadline;

    BodyTimeout(Duration timeout, Dispatcher dispatcher) {
        this.timeoutNanos = timeout.toNanos();
        this.dispatcher = dispatcher;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            unanswered++;
            if (!(msg instanceof LastHttpContent)) {
                arm(ctx);
            }
        }
        if (msg instanceof LastHttpContent) {
            disarm();
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
        written.addListener(future -> unanswered--);
        ctx.write(msg, written);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        disarm();
        ctx.fireChannelInactive();
    }

    private void arm(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> expire(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private void disarm() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        deadline = null;
        if (unanswered > 1) { // answers before it are owed: its 100 Continue, which the client may wait for, is not sent
            arm(ctx);
            return;
        }
        if (unanswered == 0) {
            ctx.close();
            return;
        }
        HttpAnswer answer = dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.BODY_TIMEOUT,
                "No complete request body within REST_BODY_TIMEOUT."));
        GatewayHandler.write(ctx, answer, false);
    }
}
