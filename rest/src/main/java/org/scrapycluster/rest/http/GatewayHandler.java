package org.scrapycluster.rest.http;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;

/**
 * Takes whole requests off the event loop: each is answered by the {@link Dispatcher} on the
 * executor (endpoints may block), and the answers of one connection are written in the order
 * its requests came (HTTP/1.1 pipelining). A request Netty could not decode is refused and the
 * connection closed.
 */
final class GatewayHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final AttributeKey<CompletableFuture<Void>> LAST_ANSWER = AttributeKey.valueOf("rest.lastAnswer");

    private static final String BEARER = "Bearer ";
    private static final String API_KEY_HEADER = "X-Api-Key";

    private final Dispatcher dispatcher;
    private final Executor executor;

    GatewayHandler(Dispatcher dispatcher, Executor executor) {
        this.dispatcher = dispatcher;
        this.executor = executor;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            HttpAnswer answer = dispatcher.refusedBeforeRouting(new RefusedRequestException(Refusal.MALFORMED_HTTP,
                    String.valueOf(request.decoderResult().cause().getMessage())));
            write(ctx, answer, false);
            return;
        }
        HttpCall call = new HttpCall(request.method(), new QueryStringDecoder(request.uri()).path(),
                request.headers().get(HttpHeaderNames.CONTENT_TYPE), ByteBufUtil.getBytes(request.content()),
                presentedKey(request.headers()), request.headers().get(HttpHeaderNames.HOST));
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        CompletableFuture<Void> previous = ctx.channel().attr(LAST_ANSWER).get();
        CompletableFuture<HttpAnswer> answer = previous == null
                ? CompletableFuture.supplyAsync(() -> dispatcher.answer(call), executor)
                : previous.thenApplyAsync(ignored -> dispatcher.answer(call), executor);
        ctx.channel().attr(LAST_ANSWER).set(answer.thenAccept(a -> write(ctx, a, keepAlive)).exceptionally(failure -> {
            ctx.close();
            return null;
        }));
    }

    /** The key of {@code Authorization: Bearer <key>}, else of {@code X-Api-Key: <key>}, else null. */
    static String presentedKey(HttpHeaders headers) {
        String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return authorization.substring(BEARER.length()).strip();
        }
        String key = headers.get(API_KEY_HEADER);
        return key == null ? null : key.strip();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Writes {@code answer}; closes the connection after it unless {@code keepAlive}. */
    static void write(ChannelHandlerContext ctx, HttpAnswer answer, boolean keepAlive) {
        FullHttpResponse response = response(answer);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    static FullHttpResponse response(HttpAnswer answer) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        for (Map.Entry<String, String> header : answer.headers().entrySet()) {
            response.headers().set(header.getKey(), header.getValue());
        }
        return response;
    }
}
