package org.scrapycluster.crawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.proxy.ProxyConnectException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.resolver.NoopAddressResolverGroup;
import io.netty.util.AttributeKey;
import reactor.core.publisher.Mono;
import reactor.netty.NettyPipeline;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.http.client.PrematureCloseException;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.ProxyProvider;
import reactor.util.context.Context;

/**
 * The {@link Fetcher} on Reactor Netty's {@code HttpClient}, measured against {@link HttpFetcher}: Reactor's
 * connection pools per address, the total limit held here, the body read through {@link BodyDecoder} under the
 * size limit, redirects not followed, and the host resolved and checked by the {@link AddressPolicy} before
 * Reactor connects to exactly that address.
 */
public final class ReactorFetcher implements Fetcher, AutoCloseable {

    private static final AttributeKey<Integer> EXCHANGES = AttributeKey.valueOf("scrapycluster.exchanges");

    private final FetcherConfig config;
    private final LoopResources loops;
    private final ConnectionProvider pools;
    /** For plain HTTP: direct, or to the proxy with the absolute URL. */
    private final HttpClient plain;
    /** For HTTPS: direct, or through the proxy's CONNECT tunnel. */
    private final HttpClient secure;
    private final HostResolver resolver;
    private final FetchSlots slots;
    private final HeaderMap defaultHeaders;
    private final LongAdder inflatedBytes = new LongAdder();
    private final Map<CompletableFuture<FetchResult>, Exchange> inFlight = new ConcurrentHashMap<>();

    public ReactorFetcher(FetcherConfig config) {
        this.config = config;
        this.loops = LoopResources.create("reactor-fetcher", config.ioThreads(), true);
        this.pools = ConnectionProvider.builder("fetcher").maxConnections(config.maxConnectionsPerHost())
                .pendingAcquireMaxCount(-1).pendingAcquireTimeout(config.totalTimeout())
                .maxIdleTime(config.idleConnectionTimeout()).build();
        this.resolver = new HostResolver(config.resolverThreads());
        this.slots = new FetchSlots(config.maxConnections());
        this.defaultHeaders = OutgoingRequest.defaultHeaders(config.userAgent());
        SslContext tls = ClientTls.of(config);
        HttpClient base = HttpClient.create(pools)
                .runOn(loops, config.nativeTransport())
                .resolver(NoopAddressResolverGroup.INSTANCE)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .followRedirect(false)
                .responseTimeout(config.readTimeout())
                .disableRetry(true)
                .doOnRequest((request, connection) -> {
                    Integer before = connection.channel().attr(EXCHANGES).get();
                    connection.channel().attr(EXCHANGES).set(before == null ? 1 : before + 1);
                    request.currentContextView().getOrEmpty(Exchange.class)
                            .ifPresent(exchange -> ((Exchange) exchange).sent(before != null));
                });
        HttpClient tlsClient = base.secure(spec -> spec.sslContext(tls));
        ProxyConfig proxy = config.proxy();
        if (proxy == null) {
            this.plain = base;
            this.secure = tlsClient;
        } else {
            // HTTPS goes through a CONNECT tunnel; plain HTTP is sent to the proxy with the absolute URL, as Scrapy does
            this.secure = tlsClient.proxy(spec -> {
                ProxyProvider.Builder builder = spec.type(ProxyProvider.Proxy.HTTP).host(proxy.host()).port(proxy.port())
                        .connectTimeoutMillis(config.connectTimeout().toMillis());
                if (proxy.hasCredentials()) {
                    builder.username(proxy.username()).password(user -> proxy.password());
                }
            });
            String authorization = proxy.hasCredentials() ? "Basic " + Base64.getEncoder().encodeToString(
                    (proxy.username() + ":" + proxy.password()).getBytes(StandardCharsets.UTF_8)) : null;
            this.plain = base.resolver(DefaultAddressResolverGroup.INSTANCE)
                    .remoteAddress(() -> InetSocketAddress.createUnresolved(proxy.host(), proxy.port()))
                    .doOnConnected(connection -> connection.channel().pipeline()
                            .addBefore(NettyPipeline.ReactiveBridge, "absolute-form", new AbsoluteForm(authorization)));
        }
    }

    @Override
    public CompletableFuture<FetchResult> fetch(FetchRequest request) {
        Exchange exchange;
        try {
            // the request target is the path: Reactor connects to the address given, and a proxied plain request is
            // put in absolute form on its way out
            exchange = new Exchange(OutgoingRequest.of(request, defaultHeaders, false));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(ResponseReport.of(new OutgoingRequest(request, request.url(),
                    null, "", HeaderMap.empty()), 0, "", HeaderMap.empty(), null, FetchError.INVALID_REQUEST,
                    e.getMessage(), new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false)));
        }
        CompletableFuture<FetchResult> result = new CompletableFuture<>();
        Runnable cancel = () -> result.complete(exchange.result(FetchError.CANCELLED, "the fetcher was closed"));
        if (!slots.run(() -> start(exchange, result), cancel)) {
            cancel.run();
        }
        return result;
    }

    /** Runs {@code exchange} in the slot it was given; {@code result} completes once, and its completion aborts it. */
    private void start(Exchange exchange, CompletableFuture<FetchResult> result) {
        exchange.startedNanos = System.nanoTime();
        inFlight.put(result, exchange);
        CompletableFuture<FetchResult> running = run(exchange).toFuture();
        result.whenComplete((done, failure) -> running.cancel(true));
        running.whenComplete((done, failure) -> {
            inFlight.remove(result);
            slots.release();
            result.complete(done != null ? done : exchange.result(FetchError.CANCELLED, "cancelled by the caller"));
        });
    }

    /** Bytes inflated from gzip and deflate bodies since the fetcher started (at most one past the limit per body). */
    public long inflatedBytes() {
        return inflatedBytes.sum();
    }

    @Override
    public void close() {
        slots.close();
        inFlight.forEach((result, exchange) -> result.complete(exchange.result(FetchError.CANCELLED,
                "the fetcher was closed")));
        pools.dispose();
        loops.dispose();
        resolver.close();
    }

    private Mono<FetchResult> run(Exchange exchange) {
        OutgoingRequest sent = exchange.sent;
        ProxyConfig proxy = config.proxy();
        boolean checkTarget = proxy == null || config.addressPolicy().forbidsInternal();
        Mono<Optional<InetAddress>> target = checkTarget
                ? Mono.fromFuture(() -> resolver.resolve(sent.key().host()), true).map(Optional::of)
                : Mono.just(Optional.empty());
        return target.flatMap(address -> {
            Optional<String> refusal = address.flatMap(config.addressPolicy()::refusal);
            if (refusal.isPresent()) {
                String host = sent.key().host();
                return Mono.error(new Failures.ForbiddenAddressException(
                        host.equals(address.get().getHostAddress()) ? refusal.get() : host + ": " + refusal.get()));
            }
            HttpClient client;
            if (!sent.key().https()) {
                client = proxy != null ? plain
                        : plain.remoteAddress(() -> new InetSocketAddress(address.get(), sent.key().port()));
            } else {
                client = secure.remoteAddress(() -> address.isPresent()
                        ? new InetSocketAddress(address.get(), sent.key().port())
                        : InetSocketAddress.createUnresolved(sent.key().host(), sent.key().port()));
            }
            HttpClient chosen = client;
            return exchangeOn(chosen, exchange).onErrorResume(failure -> exchange.mayRetry(failure)
                    ? exchangeOn(chosen, exchange) : Mono.error(failure));
        })
                .timeout(config.totalTimeout())
                .onErrorResume(failure -> Mono.just(exchange.failed(failure, config.totalTimeout())))
                .doFinally(signal -> exchange.closeDecoder())
                .contextWrite(Context.of(Exchange.class, exchange));
    }

    /** One exchange of {@code exchange}'s request on a connection of {@code client}. */
    private Mono<FetchResult> exchangeOn(HttpClient client, Exchange exchange) {
        OutgoingRequest sent = exchange.sent;
        return client
                    .headers(headers -> setHeaders(headers, sent))
                    .request(HttpMethod.valueOf(sent.request().method()))
                    .uri(sent.target())
                    .send(sent.request().body().length == 0 ? Mono.empty()
                            : Mono.just(Unpooled.wrappedBuffer(sent.request().body())))
                    .responseConnection((response, connection) -> {
                        try {
                            exchange.head(response, inflatedBytes, (int) config.maxBodyBytes());
                        } catch (BodyTooLargeException e) {
                            return Mono.error(e);
                        }
                        return connection.inbound().receive().handle((piece, sink) -> {
                            try {
                                if (!exchange.decoder.write(piece)) {
                                    sink.error(new BodyTooLargeException("body exceeds the limit of "
                                            + config.maxBodyBytes() + " bytes"));
                                }
                            } catch (BodyDecoder.CorruptBodyException e) {
                                sink.error(e);
                            }
                        }).then(Mono.fromSupplier(() -> exchange.result(null, null)));
                    })
                    .single();
    }

    private static void setHeaders(HttpHeaders headers, OutgoingRequest sent) {
        headers.set(HttpHeaderNames.HOST, sent.key().hostHeader());
        for (Map.Entry<String, String> header : sent.sentHeaders().entries()) {
            // Reactor sets its own User-Agent and Accept; the request's replace them, repeated names are kept
            if (headers.contains(header.getKey()) && sent.sentHeaders().all(header.getKey()).getFirst().equals(header.getValue())) {
                headers.set(header.getKey(), header.getValue());
            } else {
                headers.add(header.getKey(), header.getValue());
            }
        }
        if (sent.request().body().length > 0 || sent.request().method().equals("POST") || sent.request().method().equals("PUT")) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, sent.request().body().length);
        }
    }

    /** Raised when a body goes past the size limit. */
    private static final class BodyTooLargeException extends Exception {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(String message) {
            super(message);
        }
    }

    /** Rewrites a plain HTTP request sent to the proxy into the absolute form, with the proxy's credentials. */
    private static final class AbsoluteForm extends ChannelOutboundHandlerAdapter {
        private final String authorization;

        AbsoluteForm(String authorization) {
            this.authorization = authorization;
        }

        @Override
        public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
            if (message instanceof HttpRequest request && request.uri().startsWith("/")) {
                request.setUri("http://" + request.headers().get(HttpHeaderNames.HOST) + request.uri());
                if (authorization != null) {
                    request.headers().set(HttpHeaderNames.PROXY_AUTHORIZATION, authorization);
                }
            }
            super.write(context, message, promise);
        }
    }

    /** What one fetch has read so far. Touched by one thread at a time, in the order of the exchange. */
    private static final class Exchange {
        final OutgoingRequest sent;
        final long createdNanos = System.nanoTime();
        volatile long startedNanos;
        volatile long sentNanos;
        volatile long firstByteNanos;
        volatile boolean reused;
        volatile int status;
        volatile String reason = "";
        volatile HeaderMap headers = HeaderMap.empty();
        volatile BodyBuffer body;
        volatile BodyDecoder decoder;
        volatile boolean retried;

        Exchange(OutgoingRequest sent) {
            this.sent = sent;
        }

        void sent(boolean onReusedConnection) {
            sentNanos = System.nanoTime();
            reused = onReusedConnection;
        }

        void head(HttpClientResponse response, LongAdder inflatedBytes, int maxBodyBytes) throws BodyTooLargeException {
            firstByteNanos = System.nanoTime();
            HeaderMap.Builder read = HeaderMap.builder();
            for (Map.Entry<String, String> header : response.responseHeaders()) {
                read.add(header.getKey(), header.getValue());
            }
            headers = read.build();
            reason = response.status().reasonPhrase();
            status = response.status().code();
            long announced = ResponseReport.contentLength(headers);
            if (announced > maxBodyBytes) {
                throw new BodyTooLargeException("Content-Length " + announced + " exceeds the limit of " + maxBodyBytes);
            }
            body = new BodyBuffer(maxBodyBytes, announced);
            String encoding = sent.request().method().equals("HEAD") ? null : headers.last("Content-Encoding");
            decoder = new BodyDecoder(body, encoding, inflatedBytes);
        }

        /**
         * Whether the request goes once more on a new connection: a kept-alive connection the server had already
         * closed, before any answer, when repeating the request is harmless (not a POST or PATCH).
         */
        boolean mayRetry(Throwable failure) {
            String method = sent.request().method();
            boolean stale = failure instanceof PrematureCloseException || failure instanceof IOException;
            if (!reused || retried || status != 0 || !stale || method.equals("POST") || method.equals("PATCH")) {
                return false;
            }
            retried = true;
            reused = false;
            return true;
        }

        FetchResult failed(Throwable failure, Duration totalTimeout) {
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                if (cause instanceof ProxyConnectException) {
                    return result(FetchError.CONNECT_REFUSED, Failures.describe(cause));
                }
            }
            if (failure instanceof IllegalArgumentException) {
                return result(FetchError.PROTOCOL, "invalid HTTP response: " + failure.getMessage());
            }
            if (failure instanceof BodyTooLargeException) {
                return result(FetchError.TOO_LARGE, failure.getMessage());
            }
            if (failure instanceof BodyDecoder.CorruptBodyException) {
                return result(FetchError.PROTOCOL, "the body cannot be decoded: " + failure.getMessage());
            }
            if (failure instanceof TimeoutException) {
                return result(FetchError.TOTAL_TIMEOUT, "not done within " + totalTimeout.toMillis() + " ms");
            }
            if (failure instanceof ReadTimeoutException) {
                return result(FetchError.READ_TIMEOUT, "no data for the read timeout");
            }
            if (failure instanceof PrematureCloseException) {
                return result(FetchError.RESET, "connection closed before the response was complete");
            }
            return result(Failures.classify(failure), Failures.describe(failure));
        }

        FetchResult result(FetchError error, String message) {
            long now = System.nanoTime();
            FetchTimings timings = new FetchTimings(
                    Duration.ofNanos((startedNanos > 0 ? startedNanos : now) - createdNanos),
                    Duration.ZERO,
                    Duration.ofNanos(firstByteNanos > 0 && sentNanos > 0 ? firstByteNanos - sentNanos : 0),
                    Duration.ofNanos(now - createdNanos), reused);
            BodyBuffer read = body;
            return ResponseReport.of(sent, status, reason, headers, read == null ? null : read.toArray(), error, message,
                    timings);
        }

        void closeDecoder() {
            BodyDecoder open = decoder;
            if (open != null) {
                open.close();
            }
        }
    }

}
