package org.scrapycluster.rest.http;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.WriteTimeoutException;

/**
 * Takes whole requests off the event loop: each is answered by the {@link Dispatcher} on the
 * executor (endpoints may block), and the answers of one connection are written in the order
 * its requests came (HTTP/1.1 pipelining), refusals included. A request Netty could not decode is
 * refused and the connection closed; one whose path has a broken percent-escape is refused
 * as not HTTP too, the connection kept; one whose body is too large, or whose {@code Expect} is not met
 * ({@link RefusedBeforeBody}), is refused with 413 or 417; one refused on its head alone ({@link Admission}) is answered here like any other, without a body.
 */
final class GatewayHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final String BEARER = "Bearer ";
    private static final String API_KEY_HEADER = "X-Api-Key";
    private static final String CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";
    private static final String NOSNIFF = "nosniff";

    private final Dispatcher dispatcher;
    private final Executor executor;
    private final InFlight inFlight;
    /** The connection's answers in turn: a handler serves one connection. */
    private final ConnectionTurns turns = new ConnectionTurns();
    /** The subject of the connection's client certificate, once looked up; empty for none. */
    private String client;

    GatewayHandler(Dispatcher dispatcher, Executor executor, InFlight inFlight) {
        this.dispatcher = dispatcher;
        this.executor = executor;
        this.inFlight = inFlight;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.cause() instanceof RefusedBeforeBody refused) {
            refuseInTurn(ctx, request, refused.refusal(), refused.getMessage(), refused.lingering() ? Ending.CLOSE : Ending.KEEP_ALIVE);
            return;
        }
        if (decoded.isFailure()) {
            refuseInTurn(ctx, null, Refusal.MALFORMED_HTTP, undecodable(decoded.cause()), Ending.CLOSE);
            return;
        }
        Ending ending = request instanceof Admission.UnreadRequest unread && unread.awaitingContinue() || !HttpUtil.isKeepAlive(request)
                ? Ending.CLOSE : Ending.KEEP_ALIVE;
        if (!TransferCoding.understood(request.headers())) {
            refuseInTurn(ctx, request, Refusal.TRANSFER_CODING, null, Ending.CLOSE);
            return;
        }
        RequestTarget target;
        String key;
        try {
            target = RequestTarget.of(request);
            key = presentedKey(request.headers());
        } catch (IllegalArgumentException e) {
            refuseInTurn(ctx, request, Refusal.MALFORMED_HTTP, e.getMessage(), ending);
            return;
        }
        HttpCall call = new HttpCall(request.method(), target.path(), request.headers().get(HttpHeaderNames.CONTENT_TYPE),
                ByteBufUtil.getBytes(request.content()), key, target.host(), client(ctx), null);
        // Admission checked the head of every request it saw; one it did not see is checked by the dispatcher
        answerInTurn(ctx, () -> decoded instanceof HeadCheck head ? dispatcher.answer(call, head) : dispatcher.answer(call), ending);
    }

    /** The subject of the connection's client certificate, or null; looked up once for the connection. */
    private String client(ChannelHandlerContext ctx) {
        if (client == null) {
            String subject = HttpsOnly.clientSubject(ctx);
            client = subject == null ? "" : subject;
        }
        return client.isEmpty() ? null : client;
    }

    /**
     * Refuses the request {@code refusal} names, in its turn ({@link #answerInTurn}); {@code request} is null when its
     * request line could not be read.
     */
    private void refuseInTurn(ChannelHandlerContext ctx, HttpRequest request, Refusal refusal, String reason, Ending ending) {
        RefusedRequestException refused = new RefusedRequestException(refusal, reason);
        String method = request == null ? null : request.method().name();
        String target = request == null ? null : RequestTarget.shown(request.uri());
        answerInTurn(ctx, () -> dispatcher.refusedBeforeRouting(refused, method, target), ending);
    }

    /**
     * Answers on the executor once the connection's previous answer is written, refusals included,
     * so that a client pipelining its requests reads their answers in the order it sent them. A request read after
     * one whose answer ends the connection is not run ({@link ConnectionTurns}). Each answer is written from the
     * connection's event loop: a write from another thread waits in the loop's queue, and the next answer, worked out
     * in the meantime and written at once from the loop, would overtake it (and, ending the connection, lose it).
     */
    private void answerInTurn(ChannelHandlerContext ctx, Supplier<HttpAnswer> answering, Ending ending) {
        if (!turns.take(ending != Ending.KEEP_ALIVE)) {
            return;
        }
        inFlight.began();
        CompletableFuture<Void> previous = turns.last();
        CompletableFuture<HttpAnswer> answer = previous == null
                ? CompletableFuture.supplyAsync(answering, executor)
                : previous.thenApplyAsync(ignored -> answering.get(), executor);
        turns.last(answer.thenAcceptAsync(a -> {
            boolean closes = turns.answered(ending != Ending.KEEP_ALIVE, inFlight.draining());
            (closes && ending == Ending.KEEP_ALIVE ? Ending.CLOSE : ending).write(ctx, a).addListener(written -> inFlight.ended());
        }, ctx.executor()).exceptionally(failure -> {
            inFlight.ended();
            ctx.close();
            return null;
        }));
    }

    /**
     * Ends the connection once the answers it owes are written when the body of a request refused on its head cannot
     * be decoded ({@link Admission}): the decoder reads nothing after it, so requests pipelined behind it would wait
     * for answers that never come.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event != Admission.UndecodableBody.EVENT) {
            ctx.fireUserEventTriggered(event);
        } else if (turns.endOnceAnswered()) {
            // after the last answer's write, which its turn makes on the event loop before it completes
            CompletableFuture<Void> last = turns.last() == null ? CompletableFuture.completedFuture(null) : turns.last();
            last.whenComplete((done, failure) -> LingeringClose.writeAndClose(ctx, Unpooled.EMPTY_BUFFER));
        }
    }

    /**
     * Why the decoder could not read a request, in its words, but for a request line without a version (a line that is
     * no HTTP at all, or HTTP/2's preface), which it takes for HTTP/0.9.
     */
    private static String undecodable(Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        return message.contains("HTTP/0.9") ? "The request line is not <method> <target> HTTP/1.1 (or HTTP/1.0): the gateway speaks"
                + " HTTP/1.1 and HTTP/1.0 only." : message;
    }

    /**
     * The key of {@code Authorization: Bearer <key>}, else of {@code X-Api-Key: <key>}, else null.
     *
     * @throws IllegalArgumentException when the request presents a key in both, or either header twice: which one
     *                                  counts would be up to the order of the headers, which proxies may change
     */
    static String presentedKey(HttpHeaders headers) {
        List<String> authorizations = headers.getAll(HttpHeaderNames.AUTHORIZATION);
        List<String> keys = headers.getAll(API_KEY_HEADER);
        boolean bearer = authorizations.size() == 1 && authorizations.getFirst().regionMatches(true, 0, BEARER, 0, BEARER.length());
        if (authorizations.size() > 1 || keys.size() > 1 || bearer && !keys.isEmpty()) {
            throw new IllegalArgumentException("The request presents more than one API key: send one, in Authorization: Bearer <key>"
                    + " or in X-Api-Key: <key>.");
        }
        if (bearer) {
            return authorizations.getFirst().substring(BEARER.length()).strip();
        }
        return keys.isEmpty() ? null : keys.getFirst().strip();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof WriteTimeoutException) { // REST_SEND_TIMEOUT: the client takes nothing, not even a close_notify
            HttpsOnly.abandon(ctx);
        } else {
            ctx.close();
        }
    }

    /** {@code response}, saying that the connection closes after it. */
    private static FullHttpResponse closing(FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return response;
    }

    /** What becomes of the connection once an answer is written. */
    enum Ending {

        /** It stays open for the next request. */
        KEEP_ALIVE {
            @Override
            ChannelFuture write(ChannelHandlerContext ctx, HttpAnswer answer) {
                FullHttpResponse response = response(answer);
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                return ctx.writeAndFlush(response);
            }
        },
        /**
         * It is closed once the client, perhaps still sending (a body, requests pipelined behind one that closes, bytes
         * the decoder gave up on), has had the answer ({@link LingeringClose}).
         */
        CLOSE {
            @Override
            ChannelFuture write(ChannelHandlerContext ctx, HttpAnswer answer) {
                return LingeringClose.writeAndClose(ctx, closing(response(answer)));
            }
        },
        /** It is closed at once, whatever the client still sends: a connection refused before anything of it is read. */
        CLOSE_UNREAD {
            @Override
            ChannelFuture write(ChannelHandlerContext ctx, HttpAnswer answer) {
                return ctx.writeAndFlush(closing(response(answer))).addListener(ChannelFutureListener.CLOSE);
            }
        };

        /** Writes {@code answer}; the future completes once it is written. */
        abstract ChannelFuture write(ChannelHandlerContext ctx, HttpAnswer answer);
    }

    /**
     * The response carrying {@code answer}. Every answer says {@code X-Content-Type-Options: nosniff}, so that a browser
     * takes a body for its {@code Content-Type} alone, and, unless it says otherwise (the web UI's files, revalidated),
     * {@code Cache-Control: no-store}: what the gateway answers depends on the key presented and on the cluster's state
     * now, and no cache between it and a caller may keep it for another (docs/security.md).
     */
    private static FullHttpResponse response(HttpAnswer answer) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        response.headers().set(CONTENT_TYPE_OPTIONS, NOSNIFF);
        for (Map.Entry<String, String> header : answer.headers().entrySet()) {
            response.headers().set(header.getKey(), header.getValue());
        }
        return response;
    }
}
