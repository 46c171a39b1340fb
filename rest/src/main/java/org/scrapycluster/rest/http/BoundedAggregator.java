package org.scrapycluster.rest.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;

/**
 * Aggregates a request's body up to {@code JSON_MAX_DOCUMENT_BYTES}. A larger one — announced by
 * its {@code Content-Length}, with or without {@code Expect: 100-continue}, or found while
 * streaming a chunked body — is refused with 413 in the envelope and counted, in its turn among
 * the connection's answers ({@link BodyTooLarge}); the rest of its body is read and dropped. A request
 * that expects anything but {@code 100-continue} is refused with 417 in the envelope, before its body. A refusal
 * before the body ends the connection: nothing the client sends after it is read as a request.
 */
final class BoundedAggregator extends HttpObjectAggregator {

    private final int maxBytes;
    private final Dispatcher dispatcher;
    /** Whether the connection ends with a refusal written here: what the decoder reads after it is dropped. */
    private boolean ended;

    BoundedAggregator(int maxBytes, Dispatcher dispatcher) {
        super(maxBytes);
        this.maxBytes = maxBytes;
        this.dispatcher = dispatcher;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (ended) {
            ReferenceCountUtil.release(msg); // a body sent after its refusal, read from the same bytes, parsed as a request
            return;
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        String expected = start.headers().get(HttpHeaderNames.EXPECT); // before Netty's answer takes the header away
        Object answer = super.newContinueResponse(start, maxContentLength, pipeline);
        if (answer instanceof FullHttpResponse response && response.status().equals(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE)) {
            response.release();
            return refusedThenClose(pipeline, Refusal.TOO_LARGE, BodyTooLarge.message(maxBytes));
        }
        if (answer instanceof FullHttpResponse response && response.status().equals(HttpResponseStatus.EXPECTATION_FAILED)) {
            response.release();
            return refusedThenClose(pipeline, Refusal.EXPECTATION, "Expect: " + expected);
        }
        return answer;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        // The rest of the body is read and dropped, so that the client, still sending, is not
        // reset before it reads the answer. A connection whose body had begun (a chunked one over
        // the limit) cannot be reused; it ends with a lingering close. The 413 is written by the
        // GatewayHandler, after the answers of requests pipelined before this one.
        boolean reusable = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized);
        HttpRequest request = (HttpRequest) oversized;
        FullHttpRequest standIn = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                Unpooled.EMPTY_BUFFER);
        standIn.setDecoderResult(DecoderResult.failure(new BodyTooLarge(maxBytes, !reusable)));
        ctx.fireChannelRead(standIn);
    }

    /**
     * The refusal Netty's aggregator writes for a request that announced its body with {@code Expect}; the connection
     * ends with it ({@link LingeringClose#endWithNextAnswer}): Netty has reset its decoder, and would read a body the
     * client sends all the same as a request of its own, one that a proxy in front never saw.
     */
    private FullHttpResponse refusedThenClose(ChannelPipeline pipeline, Refusal refusal, String reason) {
        FullHttpResponse answer = GatewayHandler.closing(GatewayHandler.response(
                dispatcher.refusedBeforeRouting(new RefusedRequestException(refusal, reason))));
        LingeringClose.endWithNextAnswer(pipeline);
        ended = true;
        return answer;
    }
}
