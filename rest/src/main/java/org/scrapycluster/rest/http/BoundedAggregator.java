package org.scrapycluster.rest.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Aggregates a request's body up to {@code JSON_MAX_DOCUMENT_BYTES}. A larger one — announced by
 * its {@code Content-Length}, with or without {@code Expect: 100-continue}, or found while
 * streaming a chunked body — is refused with 413 in the envelope and counted; the rest of its
 * body is read and dropped.
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
            return tooLargeThenClose();
        }
        return answer;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        // The rest of the body is read and dropped, so that the client, still sending, is not
        // reset before it reads the answer. A connection whose body had begun (a chunked one over
        // the limit) cannot be reused; it ends with a lingering close.
        if (!(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized)) {
            GatewayHandler.write(ctx, tooLarge(), true);
        } else {
            LingeringClose.writeAndClose(ctx, tooLargeThenClose());
        }
    }

    private FullHttpResponse tooLargeThenClose() {
        FullHttpResponse refused = GatewayHandler.response(tooLarge());
        refused.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return refused;
    }

    private HttpAnswer tooLarge() {
        return dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.TOO_LARGE,
                "The body is larger than JSON_MAX_DOCUMENT_BYTES (" + maxBytes + " bytes)."));
    }
}
