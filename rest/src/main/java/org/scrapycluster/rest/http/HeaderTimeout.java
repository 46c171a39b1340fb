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
 * Closes a connection that has not sent a request's complete headers within {@code REST_HEADER_TIMEOUT}, counted from
 * the connection's opening or from the moment its last request was answered (a client trickling its headers a byte at
 * a time holds no socket for long, and neither does a kept-alive connection left idle); a request answered before its
 * body is in (refused on its headers, the body dropped as it arrives) starts the count once the body is in,
 * {@link BodyTimeout} bounding that. The connection is answered 408 in the envelope, counted as a refusal
 * ({@code header_timeout}), and closed. It sits after the HTTP codec: it sees request heads and bodies as they are
 * decoded and every answer written.
 */
final class HeaderTimeout extends ChannelDuplexHandler {

    private final long timeoutNanos;
    private final Dispatcher dispatcher;
    private int unanswered;
    /** Whether a request's head has come and not yet the end of its body. */
    private boolean bodyPending;
    private ScheduledFuture<?> deadline;

    HeaderTimeout(Duration timeout, Dispatcher dispatcher) {
        this.timeoutNanos = timeout.toNanos();
        this.dispatcher = dispatcher;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            unanswered++;
            disarm();
            bodyPending = true;
        }
        if (msg instanceof LastHttpContent) {
            bodyPending = false;
            armIfIdle(ctx);
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
            armIfIdle(ctx);
        });
        ctx.write(msg, written);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        disarm();
        ctx.fireChannelInactive();
    }

    /** Arms the timer when the connection owes no answer and is not sending a body: the next request's headers are due. */
    private void armIfIdle(ChannelHandlerContext ctx) {
        if (unanswered == 0 && !bodyPending && ctx.channel().isActive()) {
            arm(ctx);
        }
    }

    private void arm(ChannelHandlerContext ctx) {
        disarm();
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
        HttpAnswer answer = dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.HEADER_TIMEOUT,
                "No complete request headers within REST_HEADER_TIMEOUT."));
        GatewayHandler.write(ctx, answer, false);
    }
}
