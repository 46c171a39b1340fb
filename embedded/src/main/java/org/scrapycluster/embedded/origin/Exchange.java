package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * One request to the test origin and the means to answer it: all at once ({@link #send}), streamed
 * ({@link #startBody}, {@link #writeBody}, {@link #endBody}), later ({@link #schedule}), or not at all
 * ({@link #reset()}, {@link #close()}, {@link #writeRaw}). Response headers are given as name, value pairs;
 * a name may repeat. The connection is kept alive unless the client asked otherwise.
 */
public final class Exchange {

    private final ChannelHandlerContext ctx;
    private final RecordedRequest request;
    private final Map<String, List<String>> params;
    private final boolean keepAlive;
    private final IntFunction<String> baseUrls;

    Exchange(ChannelHandlerContext ctx, RecordedRequest request, Map<String, List<String>> params, boolean keepAlive,
            IntFunction<String> baseUrls) {
        this.ctx = ctx;
        this.request = request;
        this.params = params;
        this.keepAlive = keepAlive;
        this.baseUrls = baseUrls;
    }

    public RecordedRequest request() {
        return request;
    }

    public int domainIndex() {
        return request.domainIndex();
    }

    public String path() {
        return request.path();
    }

    /** The first value of query parameter {@code name}, or null. */
    public String param(String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** Every query parameter, name → values, in the order they appear. */
    public Map<String, List<String>> params() {
        return params;
    }

    /** Query parameter {@code name} as a number, or {@code fallback} when absent. */
    public long longParam(String name, long fallback) {
        String value = param(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("query parameter " + name + " is not a number: " + value, e);
        }
    }

    /** The base URL ({@code http://127.0.0.7:port}, on this connection's scheme) of test domain {@code domain}. */
    public String baseUrl(int domain) {
        return baseUrls.apply(domain);
    }

    /** Answers with {@code status}, its standard reason phrase, {@code body} and the given header pairs. */
    public void send(int status, byte[] body, String... headers) {
        send(HttpResponseStatus.valueOf(status), body, headers);
    }

    /** Answers with {@code status} and a reason phrase of the route's choosing. */
    public void send(int status, String reason, byte[] body, String... headers) {
        send(new HttpResponseStatus(status, reason), body, headers);
    }

    /** Answers with a UTF-8 text body of the given content type. */
    public void sendText(int status, String contentType, String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Content-Type";
        all[1] = contentType;
        System.arraycopy(headers, 0, all, 2, headers.length);
        send(status, body.getBytes(StandardCharsets.UTF_8), all);
    }

    private void send(HttpResponseStatus status, byte[] body, String... headers) {
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        addHeaders(response.headers(), headers);
        HttpUtil.setContentLength(response, body.length);
        finishHeaders(response);
        ctx.writeAndFlush(response).addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE
                : ChannelFutureListener.CLOSE);
    }

    /**
     * Sends the status line and headers of a streamed answer.
     *
     * @param contentLength the body's length, or -1 to send it chunked
     */
    public void startBody(int status, long contentLength, String... headers) {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        addHeaders(response.headers(), headers);
        if (contentLength < 0) {
            HttpUtil.setTransferEncodingChunked(response, true);
        } else {
            HttpUtil.setContentLength(response, contentLength);
        }
        finishHeaders(response);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    /** Sends part of a streamed body; {@code whenWritten} runs (on the event loop) once it left. */
    public void writeBody(byte[] chunk, Runnable whenWritten) {
        ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(chunk))).addListener(future -> {
            if (future.isSuccess()) {
                whenWritten.run();
            } else {
                ctx.close();
            }
        });
    }

    /** Ends a streamed body. */
    public void endBody() {
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(keepAlive
                ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    /** Runs {@code task} on the event loop after {@code delayMillis}, if the connection is still open then. */
    public void schedule(Runnable task, long delayMillis) {
        ctx.executor().schedule(() -> {
            if (isOpen()) {
                task.run();
            }
        }, delayMillis, TimeUnit.MILLISECONDS);
    }

    public boolean isOpen() {
        return ctx.channel().isActive();
    }

    /** Writes bytes as they are, bypassing HTTP, and closes the connection. */
    public void writeRaw(byte[] bytes) {
        ctx.pipeline().context(OriginChannelInitializer.HTTP_CODEC).writeAndFlush(Unpooled.wrappedBuffer(bytes))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** Closes the connection without an answer. */
    public void close() {
        ctx.close();
    }

    /** Aborts the connection with a TCP reset. */
    public void reset() {
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
    }

    private void finishHeaders(HttpResponse response) {
        response.headers().set(HttpHeaderNames.SERVER, "scrapy-cluster-test-origin");
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }

    private static void addHeaders(HttpHeaders target, String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("headers come in name, value pairs");
        }
        for (int i = 0; i < pairs.length; i += 2) {
            target.add(pairs[i], pairs[i + 1]);
        }
    }
}
