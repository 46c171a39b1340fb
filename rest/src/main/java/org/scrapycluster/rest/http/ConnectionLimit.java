package org.scrapycluster.rest.http;

import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Caps the connections open at once ({@code REST_MAX_CONNECTIONS}), with one counter shared by
 * every connection of a server. A connection beyond the cap is answered 503 in the envelope,
 * counted as a refusal ({@code too_many_connections}), and closed; the handlers after this one
 * never see it become active, so nothing of it is read.
 */
final class ConnectionLimit extends ChannelInboundHandlerAdapter {

    private final int maxConnections;
    private final AtomicInteger open;
    private final Dispatcher dispatcher;
    private boolean counted;

    ConnectionLimit(int maxConnections, AtomicInteger open, Dispatcher dispatcher) {
        this.maxConnections = maxConnections;
        this.open = open;
        this.dispatcher = dispatcher;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counted = true;
        if (open.incrementAndGet() <= maxConnections) {
            ctx.fireChannelActive();
            return;
        }
        HttpAnswer answer = dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.TOO_MANY_CONNECTIONS,
                "More than REST_MAX_CONNECTIONS (" + maxConnections + ") connections are open."), null, null);
        GatewayHandler.Ending.CLOSE_UNREAD.write(ctx, answer);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            open.decrementAndGet();
        }
        ctx.fireChannelInactive();
    }
}
