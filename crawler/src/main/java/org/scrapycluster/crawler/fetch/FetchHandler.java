package org.scrapycluster.crawler.fetch;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP exchange on one connection: sends a call's request, reads its response into the call — decoding a
 * gzip or deflate body ({@link BodyDecoder}), within the size limit (or up to where the request cuts the body)
 * and the read timeout — and reports how it ended to the {@link FetchLifecycle}. A connection
 * carries one exchange at a time; data arriving between exchanges, or past the end of a response, closes it, and
 * so does a response that came before the whole request was sent.
 */
final class FetchHandler extends ChannelInboundHandlerAdapter {

    /** The methods whose repetition changes nothing: a request of another is never sent twice. */
    private static final Set<String> IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

    /**
     * Headers of a request, already checked by {@link OutgoingRequest} (names are tokens, values hold no CR, LF
     * or NUL); other values go out as Scrapy sends them (a leading space, a control character), which Netty's own
     * checks would refuse.
     */
    private static final HttpHeadersFactory CHECKED_HEADERS = DefaultHttpHeadersFactory.headersFactory()
            .withValidation(false);

    private static final Logger LOG = LoggerFactory.getLogger(FetchHandler.class);

    private final long readTimeoutNanos;
    private final int maxBodyBytes;
    private final long warnBodyBytes;
    private final String proxyAuthorization;
    private final LongAdder inflatedBytes;
    private final ResponseDecoder responses;
    private ChannelHandlerContext ctx;
    private FetchCall current;
    /** Who began the current exchange, to be told how it ended. */
    private ExchangeEnd reportTo;
    private BodyDecoder decoder;
    /** The body bytes of the current response as they came off the connection, before any decoding. */
    private long receivedBodyBytes;
    private boolean skippingInterim;

    /**
     * @param responses     the decoder of the connection's responses
     * @param inflatedBytes counts the bytes inflated from compressed bodies
     */
    FetchHandler(FetcherConfig config, ResponseDecoder responses, String proxyAuthorization, LongAdder inflatedBytes) {
        this.responses = responses;
        this.readTimeoutNanos = config.readTimeout().toNanos();
        this.maxBodyBytes = (int) config.maxBodyBytes();
        this.warnBodyBytes = config.warnBodyBytes() == 0 ? Long.MAX_VALUE : config.warnBodyBytes();
        this.proxyAuthorization = proxyAuthorization;
        this.inflatedBytes = inflatedBytes;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    /** Sends {@code call}'s request on this connection, to report its end to {@code end}. Runs on the connection's event loop. */
    void begin(FetchCall call, ExchangeEnd end) {
        current = call;
        reportTo = end;
        skippingInterim = false;
        long now = System.nanoTime();
        call.response.sentNanos = now;
        call.response.requestSent = false;
        call.response.lastReadNanos = now;
        DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
                HttpMethod.valueOf(call.request.method()), call.target,
                call.request.body().length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(call.request.body()),
                CHECKED_HEADERS, CHECKED_HEADERS);
        HttpHeaders headers = request.headers();
        if (!call.sentHeaders.contains("Host")) {
            headers.add(HttpHeaderNames.HOST, call.key.hostHeader());
        }
        for (Map.Entry<String, String> header : call.sentHeaders.entries()) {
            headers.add(header.getKey(), HeaderText.wire(header.getValue()));
        }
        if (call.request.body().length > 0 || call.request.method().equals("POST") || call.request.method().equals("PUT")) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, call.request.body().length);
        }
        if (proxyAuthorization != null && !call.key.https()) {
            headers.set(HttpHeaderNames.PROXY_AUTHORIZATION, proxyAuthorization);
        }
        responses.expectAnswerTo(call.request.method());
        ctx.writeAndFlush(request).addListener(future -> {
            if (current != call) {
                return;
            }
            if (future.isSuccess()) {
                call.response.requestSent = true;
            } else {
                endOrRetry(call, Failures.classify(future.cause()), Failures.describe(future.cause()));
            }
        });
        call.response.readTimer = ctx.executor().schedule(() -> checkReadTimeout(call), readTimeoutNanos, TimeUnit.NANOSECONDS);
    }

    private void checkReadTimeout(FetchCall call) {
        if (current != call || call.isDone()) {
            return;
        }
        long silent = System.nanoTime() - call.response.lastReadNanos;
        if (silent >= readTimeoutNanos) {
            end(call, FetchError.READ_TIMEOUT, "no data for " + TimeUnit.NANOSECONDS.toMillis(silent) + " ms");
        } else {
            call.response.readTimer = ctx.executor().schedule(() -> checkReadTimeout(call), readTimeoutNanos - silent,
                    TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        try {
            FetchCall call = current;
            if (call == null) {
                context.close();
                return;
            }
            if (msg instanceof HttpResponse response && !onHead(call, response)) {
                return;
            }
            if (msg instanceof HttpContent content) {
                onContent(call, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Takes in the status line and headers; false when the exchange ended or the response is interim. */
    private boolean onHead(FetchCall call, HttpResponse response) {
        if (failed(call, response.decoderResult())) {
            return false;
        }
        int status = response.status().code();
        if (status == 101) {
            // the fetcher never asks for an upgrade: what follows is no HTTP/1.1 (docs/operations.md, Responses that break the rules)
            end(call, FetchError.PROTOCOL, "101 Switching Protocols, though no protocol switch was asked for");
            return false;
        }
        if (status >= 100 && status < 200) {
            skippingInterim = true;
            return false;
        }
        call.response.firstByteNanos = System.nanoTime();
        call.response.headRead = true;
        call.response.status = status;
        call.response.reason = response.status().reasonPhrase();
        call.response.headers = toHeaderMap(response.headers());
        call.response.keepAlive = HttpUtil.isKeepAlive(response) && !responses.takeUntrustedFraming();
        long announced = hasNoBody(call.request.method(), status)
                ? 0 : ResponseReport.contentLength(call.response.headers);
        if (announced > maxBodyBytes && call.request.bodyCut() == 0) {
            end(call, FetchError.TOO_LARGE, "Content-Length " + announced + " exceeds the limit of " + maxBodyBytes);
            return false;
        }
        if (announced > warnBodyBytes) {
            warnOfSize(call, "Expected response size (" + announced + ")");
        }
        call.response.body = new BodyBuffer(bodyLimit(call), announced);
        String encoding = call.request.method().equals("HEAD") ? null : call.response.headers.last("Content-Encoding");
        decoder = new BodyDecoder(call.response.body, encoding, inflatedBytes);
        receivedBodyBytes = 0;
        return true;
    }

    /** Says, as Scrapy does, that {@code call}'s body is larger than DOWNLOAD_WARNSIZE ({@code what} is how it knows). */
    private void warnOfSize(FetchCall call, String what) {
        LOG.atWarn().addKeyValue("url", call.request.url()).log("{} larger than download warn size ({})", what, warnBodyBytes);
    }

    /** The most of a body {@code call} reads: where its request cuts the body, else the size limit. */
    private int bodyLimit(FetchCall call) {
        return call.request.bodyCut() > 0 ? call.request.bodyCut() : maxBodyBytes;
    }

    /**
     * Whether the answer has no body whatever its Content-Length says: that of a HEAD, where the length is the
     * GET's, and of a 204 or 304, as the HTTP client under Scrapy treats them, so the size limit does not refuse it.
     */
    private static boolean hasNoBody(String method, int status) {
        return method.equals("HEAD") || status == 204 || status == 304;
    }

    private void onContent(FetchCall call, HttpContent content) {
        if (skippingInterim) {
            skippingInterim = !(content instanceof LastHttpContent);
            return;
        }
        if (call.response.body == null || failed(call, content.decoderResult())) {
            return;
        }
        // The limit holds for the bytes as sent as well as for the decoded body, as Scrapy's DOWNLOAD_MAXSIZE
        // counts the bytes received: a compressed body cannot be read on for ever (docs/operations.md, Compressed bodies)
        ByteBuf sent = content.content();
        long room = bodyLimit(call) - receivedBodyBytes;
        boolean belowWarning = receivedBodyBytes <= warnBodyBytes;
        receivedBodyBytes += sent.readableBytes();
        boolean sentTooMuch = sent.readableBytes() > room;
        if (belowWarning && receivedBodyBytes > warnBodyBytes && !sentTooMuch) {
            warnOfSize(call, "Received (" + receivedBodyBytes + ") bytes");
        }
        BodyDecoder.Intake intake;
        try {
            intake = decoder.write(sentTooMuch ? sent.slice(sent.readerIndex(), (int) room) : sent);
            if (intake == BodyDecoder.Intake.TAKEN && content instanceof LastHttpContent && !sentTooMuch) {
                decoder.finish();
            }
        } catch (BodyDecoder.CorruptBodyException e) {
            if (!ResponseReport.isRedirect(call.response.status, call.response.headers)) {
                end(call, FetchError.PROTOCOL, "the body cannot be decoded: " + e.getMessage());
                return;
            }
            // Scrapy's redirect middleware takes a redirect before its body is decompressed: the rest is read
            // within the limit, not kept
            decoder.close();
            call.response.body = new BodyBuffer(bodyLimit(call), 0);
            intake = BodyDecoder.Intake.TAKEN;
        }
        if (intake == BodyDecoder.Intake.TAKEN && sentTooMuch) {
            intake = BodyDecoder.Intake.PAST_LIMIT;
        }
        switch (intake) {
            case PAST_LIMIT -> {
                if (call.request.bodyCut() == 0) {
                    end(call, FetchError.TOO_LARGE, "body exceeds the limit of " + maxBodyBytes + " bytes"
                            + (sentTooMuch ? " as sent" : ""));
                } else {
                    succeed(call, false); // cut where the request says: the rest is left unread, with the connection
                }
            }
            // the compressed data ended and bytes that are no part of it follow: the rest is left unread, with the connection
            case ENDED -> succeed(call, false);
            case TAKEN -> {
                if (content instanceof LastHttpContent) {
                    succeed(call, call.response.keepAlive && call.response.requestSent && !responses.holdsUnreadBytes());
                }
            }
        }
    }

    /** Ends the exchange with the response read; the connection carries another when {@code reusable}. */
    private void succeed(FetchCall call, boolean reusable) {
        current = null;
        cancelReadTimer(call);
        closeDecoder();
        reportTo.succeeded(call, ctx.channel(), reusable);
    }

    /**
     * Notes that bytes arrived, whether or not they completed a part of the response (a head sent a byte at a time is
     * slow, not silent: the read timeout is for silence); closes a connection between exchanges when bytes arrived that
     * are no response to anything.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext context) {
        FetchCall call = current;
        if (call != null) {
            call.response.lastReadNanos = System.nanoTime();
        } else if (responses.holdsUnreadBytes()) {
            context.close();
        }
        context.fireChannelReadComplete();
    }

    private boolean failed(FetchCall call, DecoderResult result) {
        if (result.isSuccess()) {
            return false;
        }
        end(call, FetchError.PROTOCOL, "invalid HTTP response: " + Failures.describe(result.cause()));
        return true;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        FetchCall call = current;
        if (call == null) {
            context.close();
        } else {
            endOrRetry(call, Failures.classify(cause), Failures.describe(cause));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        FetchCall call = current;
        if (call != null) {
            endOrRetry(call, FetchError.RESET, "connection closed before the response was complete");
        }
        context.fireChannelInactive();
    }

    /**
     * A kept-alive connection the server had already closed gets the request once more on a new one, when
     * repeating it is harmless: one of the {@link #IDEMPOTENT_METHODS}, never a POST, a PATCH or a method the
     * fetcher does not know.
     */
    private void endOrRetry(FetchCall call, FetchError error, String message) {
        String method = call.request.method();
        boolean idempotent = IDEMPOTENT_METHODS.contains(method);
        if (call.reused && !call.retried && !call.response.started() && idempotent
                && (error == FetchError.RESET || error == FetchError.IO)) {
            current = null;
            cancelReadTimer(call);
            reportTo.retryOnNewConnection(call, ctx.channel());
        } else {
            end(call, error, message);
        }
    }

    /** Ends the exchange with an error; the connection is not reused. */
    private void end(FetchCall call, FetchError error, String message) {
        current = null;
        cancelReadTimer(call);
        closeDecoder();
        reportTo.failed(call, ctx.channel(), error, message);
    }

    /** Forgets the call the lifecycle ended from outside (timeout, cancellation). Runs on the event loop. */
    void abandon(FetchCall call) {
        if (current == call) {
            current = null;
            cancelReadTimer(call);
            closeDecoder();
        }
    }

    private void closeDecoder() {
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }

    private static void cancelReadTimer(FetchCall call) {
        if (call.response.readTimer != null) {
            call.response.readTimer.cancel(false);
        }
    }

    /** The headers as received, but for a line without a name ({@code : x}), which no header of a name can mean. */
    private static HeaderMap toHeaderMap(HttpHeaders headers) {
        HeaderMap.Builder builder = HeaderMap.builder();
        for (Map.Entry<String, String> header : headers) {
            if (!header.getKey().isEmpty()) {
                builder.add(header.getKey(), header.getValue());
            }
        }
        return builder.build();
    }
}
