package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;

/**
 * Ends a connection whose client may still be sending, so that the client reads the last answer.
 * Closing a socket with bytes unread makes the kernel reset the connection, and a client still
 * writing its body then fails on the write, or loses the answer waiting in its buffer. So the
 * answer is written and the sending side shut down (the client reads the answer, then the end of
 * the stream), while whatever else the client sends is read and dropped, until it closes its side
 * or {@link #LINGER} has passed.
 */
final class LingeringClose extends ChannelDuplexHandler {

    /** How long a client may go on sending after its answer before the connection is closed anyway. */
    static final Duration LINGER = Duration.ofSeconds(2);

    /**
     * Whether the connection ends once the next answer written and flushed is out (the handler was put first before it
     * was written, by {@link #endWithNextAnswer}); false once it is, and for {@link #writeAndClose}.
     */
    private boolean awaitingAnswer;
    /** The last write since this handler was put first: the encoder hands it the answer's bytes, the last part last. */
    private ChannelPromise lastWrite;

    private LingeringClose(boolean awaitingAnswer) {
        this.awaitingAnswer = awaitingAnswer;
    }

    /** Writes {@code answer} (which should say {@code Connection: close}) and ends the connection as above. */
    static ChannelFuture writeAndClose(ChannelHandlerContext ctx, Object answer) {
        return ctx.writeAndFlush(answer).addListener(written -> {
            if (!written.isSuccess() || !(ctx.channel() instanceof DuplexChannel)) {
                ctx.close();
                return;
            }
            ctx.pipeline().addFirst(new LingeringClose(false));
            linger(ctx.channel());
        });
    }

    /**
     * Ends the connection of {@code pipeline} with the answer a handler of it is about to write and flush (Netty's
     * aggregator, refusing a request that announced its body with {@code Expect}): from now on what the client sends is
     * dropped before any decoder reads it (a body sent all the same would otherwise be read as a request of its own),
     * and once that answer is out the connection ends as above.
     */
    static void endWithNextAnswer(ChannelPipeline pipeline) {
        pipeline.addFirst(new LingeringClose(true));
    }

    private static void linger(Channel channel) {
        if (!(channel instanceof DuplexChannel duplex)) {
            channel.close();
            return;
        }
        duplex.shutdownOutput();
        duplex.eventLoop().schedule(() -> { duplex.close(); }, LINGER.toMillis(), TimeUnit.MILLISECONDS);
        // From this handler, first in the pipeline, a read goes straight to the socket.
        duplex.pipeline().firstContext().read();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!awaitingAnswer) {
            ctx.write(msg, promise);
            return;
        }
        lastWrite = promise.unvoid();
        ctx.write(msg, lastWrite);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ctx.flush();
        if (awaitingAnswer && lastWrite != null) {
            awaitingAnswer = false;
            lastWrite.addListener(done -> {
                if (done.isSuccess()) {
                    linger(ctx.channel());
                } else {
                    ctx.close();
                }
            });
        }
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
