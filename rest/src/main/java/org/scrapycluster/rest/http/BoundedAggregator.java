package org.scrapycluster.rest.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Aggregates a request's body up to {@code JSON_MAX_DOCUMENT_BYTES}. A larger one — announced by its
 * {@code Content-Length}, with or without {@code Expect: 100-continue}, or found while streaming a chunked body — is
 * refused with 413 in the envelope and counted, and a request that expects anything but {@code 100-continue} with 417,
 * each in its turn among the connection's answers ({@link RefusedBeforeBody}); the rest of a refused body is read and
 * dropped. A refusal of a request that announced its body with {@code Expect} ends the connection: the client may send
 * the body after the refusal or never, and nothing it sends is read as a request (a body read as a request of its own
 * would be one that a proxy in front never saw).
 *
 * <p>A {@code 100 Continue} is an answer of its request too, so it waits for the answers of the requests pipelined
 * before it ({@link PipelineLimit#onceAnswered}): written at once it came before them, and a client read it as the
 * interim answer of its first request. A client that sends its body without waiting for it gets none.
 */
final class BoundedAggregator extends HttpObjectAggregator {

    private final int maxBytes;
    private final PipelineLimit pipelineLimit;
    private ChannelHandlerContext context;
    /** The {@code 100 Continue} held back until the answers before its request are written, or null. */
    private Object heldContinue;
    /** Whether the connection ends with a refusal handed on here: what the decoder reads after it is dropped. */
    private boolean ended;

    BoundedAggregator(int maxBytes, PipelineLimit pipelineLimit) {
        super(maxBytes);
        this.maxBytes = maxBytes;
        this.pipelineLimit = pipelineLimit;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        context = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (ended) {
            ReferenceCountUtil.release(msg); // what the client sent after a refused Expect: a body, or a request's bytes
            return;
        }
        if (msg instanceof HttpContent) {
            dropHeldContinue(); // the client sends its body without waiting for it
        }
        if (msg instanceof HttpRequest request && !(msg instanceof FullHttpMessage)) {
            RefusedBeforeBody refused = refusedExpectation(request);
            if (refused != null) {
                ended = true;
                ReferenceCountUtil.release(msg);
                ctx.fireChannelRead(standIn(request, refused));
                return;
            }
        }
        super.channelRead(ctx, msg);
    }

    /**
     * The refusal of {@code request}'s {@code Expect}, which Netty's aggregator would otherwise write at once, before the
     * answers of the requests pipelined before it: null when it has none (before HTTP/1.1 it has no meaning), or expects
     * {@code 100-continue} of a body within the limit.
     */
    private RefusedBeforeBody refusedExpectation(HttpRequest request) {
        String expected = request.headers().get(HttpHeaderNames.EXPECT);
        if (expected == null || request.protocolVersion().compareTo(HttpVersion.HTTP_1_1) < 0) {
            return null;
        }
        if (!HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expected)) {
            return RefusedBeforeBody.expectation(expected);
        }
        return HttpUtil.getContentLength(request, -1L) > maxBytes ? RefusedBeforeBody.tooLarge(maxBytes, true) : null;
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object answer = super.newContinueResponse(start, maxContentLength, pipeline);
        if (answer == null || !pipelineLimit.holdsRequests()) {
            return answer;
        }
        heldContinue = answer;
        pipelineLimit.onceAnswered(this::writeHeldContinue);
        return null;
    }

    private void writeHeldContinue() {
        Object answer = heldContinue;
        if (answer != null) {
            heldContinue = null;
            context.writeAndFlush(answer);
        }
    }

    private void dropHeldContinue() {
        ReferenceCountUtil.release(heldContinue);
        heldContinue = null;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        dropHeldContinue();
        super.channelInactive(ctx);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        // The rest of the body is read and dropped, so that the client, still sending, is not
        // reset before it reads the answer. A connection whose body had begun (a chunked one over
        // the limit) cannot be reused; it ends with a lingering close.
        boolean reusable = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized);
        ctx.fireChannelRead(standIn((HttpRequest) oversized, RefusedBeforeBody.tooLarge(maxBytes, !reusable)));
    }

    /** A request without body standing in for {@code request}, which the {@link GatewayHandler} answers with {@code refused}. */
    private static FullHttpRequest standIn(HttpRequest request, RefusedBeforeBody refused) {
        FullHttpRequest standIn = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                Unpooled.EMPTY_BUFFER);
        standIn.setDecoderResult(DecoderResult.failure(refused));
        return standIn;
    }
}
