package org.scrapycluster.rest.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Checks each request's head ({@link Dispatcher#checkHead}: its {@code Host}, then its API key) and refuses the request
 * on its head alone when the {@link Dispatcher} would refuse it whatever its body: for a host the gateway does not
 * answer for, or without a valid API key where one is needed. Its body is then never buffered, and a client announcing
 * one with {@code Expect: 100-continue} is never asked to send it, so callers without a key cannot make the gateway
 * hold {@code JSON_MAX_DOCUMENT_BYTES} for each connection they open (docs/security.md). So is the body of a request
 * whose target is not valid (refused as not HTTP in its turn), and of a request to an open path ({@code /health},
 * {@code /ui}), none of whose endpoints reads one: it is answered as with none.
 *
 * <p>It sits before {@link BoundedAggregator}. The check goes on with the request as its decoder result
 * ({@link HeadCheck}), so the dispatcher answers from it and the key is looked at once. The head of a refused request
 * goes on as an {@link UnreadRequest}, with no body, which the {@link GatewayHandler} answers in its turn through the
 * dispatcher, so the refusal is the one a request read in full gets, logged and counted the same; whatever body follows
 * it is dropped as it arrives. A body that cannot be decoded (a broken chunk) ends the connection once its answers are
 * written ({@link UndecodableBody}), as no request after it can be read.
 *
 * <p>On a gateway serving HTTPS, a request that arrived without TLS ({@link HttpsOnly} let it through) is refused
 * whatever its head ({@link Refusal#PLAIN_HTTP}) and ends the connection: nothing of it is checked, not even its key,
 * which it has just sent in the clear.
 */
final class Admission extends ChannelInboundHandlerAdapter {

    private final Dispatcher dispatcher;
    private final boolean httpsOnly;
    /** Whether the body of a refused request is still arriving, to be dropped. */
    private boolean dropping;

    /** @param httpsOnly whether the gateway serves HTTPS, so that a request without TLS is refused */
    Admission(Dispatcher dispatcher, boolean httpsOnly) {
        this.dispatcher = dispatcher;
        this.httpsOnly = httpsOnly;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (dropping && msg instanceof HttpContent content) {
            dropping = !(content instanceof LastHttpContent);
            boolean undecodable = content.decoderResult().isFailure();
            content.release();
            if (undecodable) { // the decoder drops whatever comes after it: no other request can be read
                ctx.fireUserEventTriggered(UndecodableBody.EVENT);
            }
            return;
        }
        if (msg instanceof HttpRequest request && !(msg instanceof FullHttpRequest) && request.decoderResult().isSuccess()) {
            if (httpsOnly && !HttpsOnly.encrypted(ctx)) {
                request.setDecoderResult(DecoderResult.failure(RefusedBeforeBody.plainHttp()));
                dropping = true;
                ctx.fireChannelRead(new UnreadRequest(request));
                return;
            }
            HeadCheck head = check(request);
            if (head != null) {
                request.setDecoderResult(head);
            }
            // refused whatever its body (its target too), or to an open path, none of whose endpoints reads a body
            if (head == null || head.refusal() != null || head.open() && announcesBody(request)) {
                dropping = true;
                ctx.fireChannelRead(new UnreadRequest(request));
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private static boolean announcesBody(HttpRequest request) {
        return HttpUtil.getContentLength(request, 0L) > 0 || HttpUtil.isTransferEncodingChunked(request);
    }

    /**
     * The check of {@code request}'s head; null when its target is not valid ({@link RequestTarget}), it presents more
     * than one key ({@link GatewayHandler#presentedKey}) or its body has a transfer coding the gateway does not take
     * ({@link TransferCoding}).
     */
    private HeadCheck check(HttpRequest request) {
        if (!TransferCoding.understood(request.headers())) {
            return null; // refused by the GatewayHandler, in its turn, whatever its body
        }
        try {
            RequestTarget target = RequestTarget.of(request);
            return dispatcher.checkHead(target.host(), target.path(), GatewayHandler.presentedKey(request.headers()));
        } catch (IllegalArgumentException e) {
            return null; // refused as not HTTP by the GatewayHandler, in its turn, whatever its body
        }
    }

    /** Tells the handlers after this one that the body of a refused request could not be decoded. */
    enum UndecodableBody {
        EVENT
    }

    /**
     * The head of a request refused before its body was read, standing in for the whole request.
     */
    static final class UnreadRequest extends DefaultFullHttpRequest {

        private final boolean awaitingContinue;

        private UnreadRequest(HttpRequest head) {
            super(head.protocolVersion(), head.method(), head.uri(), Unpooled.EMPTY_BUFFER, head.headers(),
                    EmptyHttpHeaders.INSTANCE);
            setDecoderResult(head.decoderResult());
            this.awaitingContinue = HttpUtil.is100ContinueExpected(head);
        }

        /**
         * Whether the client waits for {@code 100 Continue} before it sends its body: it may send the body after the
         * refusal or never, so the connection cannot carry another request and ends with a lingering close.
         */
        boolean awaitingContinue() {
            return awaitingContinue;
        }
    }
}
