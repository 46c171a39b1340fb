package org.scrapycluster.crawler.fetch;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLException;

import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * An asynchronous HTTP/1.1 client for crawling, on Netty: kept-alive connection pools per host:port, total
 * and per-host concurrency limits (requests beyond them wait, served round-robin across hosts), connect,
 * read and total timeouts, a body-size limit (kept while gzip and deflate bodies are inflated), TLS with SNI, an optional HTTP proxy, and an
 * address policy that can forbid private and loopback targets.
 *
 * <p>Redirects are not followed: a 3xx result carries its resolved {@link FetchResult#location()}, and the
 * crawler sends the new request through its scheduler, as Scrapy does. Every fetch ends in a
 * {@link FetchResult} — the future never completes exceptionally — and results complete on the network
 * threads, so a caller with heavy work should continue on its own executor. Cancelling the future aborts
 * the fetch.
 */
public final class HttpFetcher implements Fetcher, AutoCloseable {

    private static final byte[] NO_BODY = new byte[0];

    private final FetcherConfig config;
    private final EventLoopGroup group;
    private final boolean nativeTransport;
    private final HostResolver resolver;
    private final Dispatcher dispatcher;
    private final FetchLifecycle lifecycle;
    private final HeaderMap defaultHeaders;
    private final LongAdder inflatedBytes = new LongAdder();

    public HttpFetcher(FetcherConfig config) {
        this.config = config;
        this.nativeTransport = config.nativeTransport() && Epoll.isAvailable();
        IoHandlerFactory io = nativeTransport ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends Channel> channelType = nativeTransport ? EpollSocketChannel.class : NioSocketChannel.class;
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("fetcher", true), io);
        this.resolver = new HostResolver(config.resolverThreads());
        this.lifecycle = new FetchLifecycle(config, group);
        this.dispatcher = new Dispatcher(config, lifecycle::start);
        this.lifecycle.wire(dispatcher, new Connector(config, group, channelType, resolver, clientTls(config), dispatcher,
                lifecycle, inflatedBytes));
        this.defaultHeaders = HeaderMap.of(
                "Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "Accept-Language", "en",
                "User-Agent", config.userAgent(),
                "Accept-Encoding", "gzip,deflate");
    }

    /** Fetches {@code request}; the result arrives on a network thread. */
    @Override
    public CompletableFuture<FetchResult> fetch(FetchRequest request) {
        FetchCall call;
        try {
            call = prepare(request);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new FetchResult(request.url(), 0, "", HeaderMap.empty(), NO_BODY,
                    null, HeaderMap.empty(), null, FetchError.INVALID_REQUEST, e.getMessage(),
                    new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false)));
        }
        call.future.whenComplete((result, failure) -> {
            if (call.future.isCancelled()) {
                lifecycle.cancel(call, "cancelled by the caller");
            }
        });
        if (!dispatcher.submit(call)) {
            lifecycle.reject(call, FetchError.CANCELLED, "the fetcher is closed");
        }
        return call.future;
    }

    /** How busy the fetcher is now. */
    public FetcherStats stats() {
        return dispatcher.stats();
    }

    /** Bytes inflated from gzip and deflate bodies since the fetcher started (at most one past the limit per body). */
    public long inflatedBytes() {
        return inflatedBytes.sum();
    }

    /** Whether the Linux epoll transport is in use (else Java NIO). */
    public boolean usesNativeTransport() {
        return nativeTransport;
    }

    /** Ends waiting and running fetches as {@link FetchError#CANCELLED}, closes every connection and the threads. */
    @Override
    public void close() {
        for (FetchCall waiting : dispatcher.close()) {
            lifecycle.reject(waiting, FetchError.CANCELLED, "the fetcher was closed");
        }
        lifecycle.abortAll("the fetcher was closed");
        resolver.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private FetchCall prepare(FetchRequest request) {
        String url;
        UrlParts parts;
        try {
            url = UrlEscaper.escape(request.url());
            parts = UrlParts.split(url);
        } catch (InvalidUrlException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        boolean https = switch (parts.scheme()) {
            case "https" -> true;
            case "http" -> false;
            default -> throw new IllegalArgumentException("only http and https URLs can be fetched: " + request.url());
        };
        String host = parts.hostname();
        if (host.isEmpty() || !isAsciiHost(host)) {
            throw new IllegalArgumentException("no usable host name in " + request.url());
        }
        IpLiterals.parse(host); // a numeric host that is no address is refused here, before it takes a slot
        int port;
        try {
            port = parts.port();
        } catch (InvalidUrlException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (port == 0) {
            throw new IllegalArgumentException("port 0 cannot be fetched: " + request.url());
        }
        HostKey key = new HostKey(https, host, port < 0 ? (https ? 443 : 80) : port);
        String target = (parts.path().isEmpty() ? "/" : parts.path())
                + (parts.query().isEmpty() ? "" : "?" + parts.query());
        if (config.proxy() != null && !https) {
            target = "http://" + key.hostHeader() + target;
        }
        requireToken(request.method(), "method");
        HeaderMap sent = sentHeaders(request.headers());
        for (Map.Entry<String, String> header : sent.entries()) {
            requireToken(header.getKey(), "header name");
            requireHeaderValue(header.getKey(), header.getValue());
        }
        return new FetchCall(request, url, key, target, sent);
    }

    /** The defaults, each replaced by the request's headers of the same name, then the request's others. */
    private HeaderMap sentHeaders(HeaderMap own) {
        HeaderMap.Builder sent = HeaderMap.builder();
        for (Map.Entry<String, String> header : defaultHeaders.entries()) {
            if (!own.contains(header.getKey())) {
                sent.add(header.getKey(), header.getValue());
            }
        }
        for (Map.Entry<String, String> header : own.entries()) {
            sent.add(header.getKey(), header.getValue());
        }
        return sent.build();
    }

    private static boolean isAsciiHost(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c <= ' ' || c >= 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static void requireToken(String token, String what) {
        boolean valid = !token.isEmpty();
        for (int i = 0; i < token.length() && valid; i++) {
            char c = token.charAt(i);
            valid = c > ' ' && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
        }
        if (!valid) {
            throw new IllegalArgumentException("not a valid HTTP " + what + ": '" + token + "'");
        }
    }

    private static void requireHeaderValue(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 0xFF) {
                throw new IllegalArgumentException("header " + name + " has a character HTTP cannot carry: "
                        + String.format(Locale.ROOT, "U+%04X", (int) c));
            }
        }
    }

    private static SslContext clientTls(FetcherConfig config) {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK);
        if (config.trustAllCertificates()) {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        } else {
            List<X509Certificate> anchors = config.trustedCertificates();
            if (!anchors.isEmpty()) {
                builder.trustManager(anchors);
            }
            builder.endpointIdentificationAlgorithm("HTTPS");
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for the fetcher", e);
        }
    }
}
