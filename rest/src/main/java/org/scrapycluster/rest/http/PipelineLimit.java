package org.scrapycluster.rest.http;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import io.micrometer.core.instrument.DistributionSummary;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Back-pressure for pipelined requests on one connection (read with auto-read off). At most
 * {@code maxPipelined} whole requests are handed on to be answered at once, and beyond the first of them no more once
 * their bodies hold {@code maxHeldBytes} (each body is kept until its request is answered, so sixteen requests of a
 * megabyte would hold sixteen megabytes a connection); requests decoded beyond that wait here in order, and while any
 * wait or a cap is reached the connection is not read at all: the {@link #readGate() read gate} at the head of the
 * pipeline swallows every read, whoever asks for it (the HTTP decoder and aggregator ask for more while a request is
 * partial).
 * A connection therefore holds the cap plus what the last socket reads decoded (each read takes
 * at most 16 KiB), however many requests its client sends; the HTTP codec's pipeline depth is
 * the hard ceiling above that. Each arriving request records how many the connection holds in
 * {@code rest.http.pipelined}.
 *
 * <p>A client that has sent its last request may close its side of the connection ({@code shutdown(SHUT_WR)}, as
 * {@code nc -N} does): the connection stays open until every request it sent has its answer written, then closes.
 * That the body of a refused request could not be decoded ({@link Admission.UndecodableBody}) is told on after that
 * request, not before it while it waits here: the connection ends once its answers are written, that one's included.
 */
final class PipelineLimit extends ChannelDuplexHandler {

    private final int maxPipelined;
    private final long maxHeldBytes;
    private final DistributionSummary held;
    private final Queue<FullHttpRequest> waiting = new ArrayDeque<>();
    /** The body sizes of the requests handed on and not yet answered, in their order, and their sum. */
    private final Queue<Integer> answering = new ArrayDeque<>();
    private long answeringBytes;
    /** Whether the client has closed its side: nothing more comes. */
    private boolean inputEnded;
    /** Whether the end of the requests read ({@link Admission.UndecodableBody}) waits to follow the last of them. */
    private boolean undecodableBodyHeld;
    /** What waits for every request handed here to be answered. */
    private final List<Runnable> onceAnswered = new ArrayList<>();

    /**
     * @param maxPipelined the most requests handed on at once
     * @param maxHeldBytes the most body bytes of the requests handed on, beyond the first of them
     */
    PipelineLimit(int maxPipelined, long maxHeldBytes, DistributionSummary held) {
        this.maxPipelined = maxPipelined;
        this.maxHeldBytes = maxHeldBytes;
        this.held = held;
    }

    /** The handler to put first in the pipeline: it lets a read through only while this limit accepts more. */
    ChannelHandler readGate() {
        return new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                if (accepting()) {
                    ctx.read();
                }
            }
        };
    }

    /** Whether any request of the connection is being answered or waits to be. */
    boolean holdsRequests() {
        return !answering.isEmpty() || !waiting.isEmpty();
    }

    /**
     * Runs {@code action} on the connection's event loop once every request handed here has its answer written: at
     * once when none is held. A request still being read is not held yet, so this is how its own interim answer waits
     * for the answers before it. Dropped if the connection closes first.
     */
    void onceAnswered(Runnable action) {
        if (holdsRequests()) {
            onceAnswered.add(action);
        } else {
            action.run();
        }
    }

    private boolean accepting() {
        return waiting.isEmpty() && mayHandOn();
    }

    /** Whether one more request may be handed on: below the cap of requests, and of their bytes unless none is. */
    private boolean mayHandOn() {
        return answering.size() < maxPipelined && (answering.isEmpty() || answeringBytes < maxHeldBytes);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.fireChannelActive();
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        waiting.add(request);
        held.record(answering.size() + waiting.size());
        handOn(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete();
        if (accepting()) {
            ctx.read();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!isFinal(msg)) {
            ctx.write(msg, promise);
            return;
        }
        ChannelPromise written = promise.unvoid();
        written.addListener(future -> answered(ctx));
        ctx.write(msg, written);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ChannelInputShutdownEvent) {
            inputEnded = true;
            closeOnceAnswered(ctx);
        } else if (event == Admission.UndecodableBody.EVENT && !waiting.isEmpty()) {
            undecodableBodyHeld = true; // told on once the request it follows is handed on (handOn)
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        FullHttpRequest request;
        while ((request = waiting.poll()) != null) {
            ReferenceCountUtil.release(request);
        }
        onceAnswered.clear();
        ctx.fireChannelInactive();
    }

    private void answered(ChannelHandlerContext ctx) {
        Integer size = answering.poll(); // none for an answer no request handed here asked for (a 408 for headers)
        answeringBytes -= size == null ? 0 : size;
        handOn(ctx);
        if (!holdsRequests() && !onceAnswered.isEmpty()) {
            List<Runnable> actions = List.copyOf(onceAnswered);
            onceAnswered.clear();
            actions.forEach(Runnable::run);
        }
        closeOnceAnswered(ctx);
        if (accepting() && ctx.channel().isActive()) {
            ctx.read();
        }
    }

    /** Closes the connection once its client has sent everything and every request of it is answered. */
    private void closeOnceAnswered(ChannelHandlerContext ctx) {
        if (inputEnded && !holdsRequests()) {
            ctx.close();
        }
    }

    private void handOn(ChannelHandlerContext ctx) {
        while (!waiting.isEmpty() && mayHandOn()) {
            FullHttpRequest request = waiting.poll();
            answering.add(request.content().readableBytes());
            answeringBytes += request.content().readableBytes();
            ctx.fireChannelRead(request);
        }
        if (undecodableBodyHeld && waiting.isEmpty()) {
            undecodableBodyHeld = false;
            ctx.fireUserEventTriggered(Admission.UndecodableBody.EVENT);
        }
    }

    /** The end of an answer: its last part, not an interim {@code 100 Continue}. */
    static boolean isFinal(Object msg) {
        return msg instanceof LastHttpContent
                && !(msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL);
    }
}
