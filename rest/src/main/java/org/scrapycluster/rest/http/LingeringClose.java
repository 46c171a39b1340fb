package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Ends a connection whose client may still be sending, so that the client reads the last answer.
 * Closing a socket with bytes unread makes the kernel reset the connection, and a client still
 * writing its body then fails on the write, or loses the answer waiting in its buffer. So the
 * answer is written and the sending side shut down (the client reads the answer, then the end of
 * the stream), while whatever else the client sends is read and dropped, until it closes its side
 * or {@link #LINGER} has passed. Over TLS the sending side first says {@code close_notify}, so that the client
 * reads the end of the stream as the end of the answers, not as a connection cut short.
 */
final class LingeringClose extends ChannelInboundHandlerAdapter {

    /** How long a client may go on sending after its answer before the connection is closed anyway. */
    static final Duration LINGER = Duration.ofSeconds(2);

    private LingeringClose() {
    }

    /** Writes {@code answer} (which should say {@code Connection: close}) and ends the connection as above. */
    static ChannelFuture writeAndClose(ChannelHandlerContext ctx, Object answer) {
        return ctx.writeAndFlush(answer).addListener(written -> {
            if (written.isSuccess()) {
                close(ctx);
            } else {
                ctx.close();
            }
        });
    }

    /** Ends the connection as above, once what was written before is sent. */
    static void close(ChannelHandlerContext ctx) {
        if (!(ctx.channel() instanceof DuplexChannel duplex) || !duplex.isActive()) {
            ctx.close();
            return;
        }
        duplex.pipeline().addFirst(new LingeringClose());
        SslHandler tls = duplex.pipeline().get(SslHandler.class);
        if (tls == null) {
            duplex.shutdownOutput();
        } else {
            tls.closeOutbound().addListener(notified -> duplex.shutdownOutput());
        }
        duplex.eventLoop().schedule(() -> { duplex.close(); }, LINGER.toMillis(), TimeUnit.MILLISECONDS);
        // From this handler, first in the pipeline, a read goes straight to the socket.
        duplex.pipeline().firstContext().read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.read();
    }
}
