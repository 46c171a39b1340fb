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

/**
 * Aggregates a request's body up to {@code JSON_MAX_DOCUMENT_BYTES}. A larger one — announced by
 * its {@code Content-Length}, with or without {@code Expect: 100-continue}, or found while
 * streaming a chunked body — is refused with 413 in the envelope and counted, in its turn among
 * the connection's answers ({@link BodyTooLarge}); the rest of its body is read and dropped. A request
 * that expects anything but {@code 100-continue} is refused with 417 in the envelope, before its body.
 */
final class BoundedAggregator extends HttpObjectAggregator {

    private final int maxBytes;
    private final Dispatcher dispatcher;

    BoundedAggregator(int maxBytes, Dispatcher dispatcher) {
        super(maxBytes);
        this.maxBytes = maxBytes;
        this.dispatcher = dispatcher;
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object answer = super.newContinueResponse(start, maxContentLength, pipeline);
        if (answer instanceof FullHttpResponse response && response.status().equals(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE)) {
            response.release();
            return refusedThenClose(Refusal.TOO_LARGE, BodyTooLarge.message(maxBytes));
        }
        if (answer instanceof FullHttpResponse response && response.status().equals(HttpResponseStatus.EXPECTATION_FAILED)) {
            response.release();
            return refusedThenClose(Refusal.EXPECTATION, "Expect: " + start.headers().get(HttpHeaderNames.EXPECT));
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

    private FullHttpResponse refusedThenClose(Refusal refusal, String reason) {
        return GatewayHandler.closing(GatewayHandler.response(dispatcher.refusedBeforeRouting(new RefusedRequestException(refusal, reason))));
    }
}
