package org.scrapycluster.crawler.fetch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;


import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * An asynchronous HTTP/1.1 client for crawling, on Netty: kept-alive connection pools per host:port, total
 * and per-host concurrency limits (requests beyond them wait, served round-robin across hosts), connect,
 * read and total timeouts, a body-size limit (kept while gzip and deflate bodies are inflated), TLS with SNI, an optional HTTP proxy, and an
 * address policy that can forbid private and loopback targets. Host names are resolved by a DNS client on the same
 * network threads ({@link HostResolver}).
 *
 * <p>Redirects are not followed: a 3xx result carries its resolved {@link FetchResult#location()}, and the
 * crawler sends the new request through its scheduler, as Scrapy does. Every fetch ends in a
 * {@link FetchResult} — the future never completes exceptionally — and results complete on the network
 * threads, so a caller with heavy work should continue on its own executor. Cancelling the future aborts
 * the fetch.
 */
public final class HttpFetcher implements Fetcher, AutoCloseable {

    /** The longest {@link #close()} takes: the fetches running are given 5 s to end as cancelled, the threads 2 s to stop. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(7);
    private static final Duration THREADS_STOP = Duration.ofSeconds(2);
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
        Class<? extends SocketChannel> channelType = nativeTransport ? EpollSocketChannel.class : NioSocketChannel.class;
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("fetcher", true), io);
        this.resolver = new HostResolver(config, group.next(),
                nativeTransport ? EpollDatagramChannel.class : NioDatagramChannel.class, channelType);
        this.dispatcher = new Dispatcher(config);
        Connector connector = new Connector(config, group, channelType, resolver, ClientTls.of(config), dispatcher, inflatedBytes);
        this.lifecycle = new FetchLifecycle(config, group, dispatcher, connector);
        this.defaultHeaders = OutgoingRequest.defaultHeaders(config.userAgent());
    }

    /** Fetches {@code request}; the result arrives on a network thread. */
    @Override
    public CompletableFuture<FetchResult> fetch(FetchRequest request) {
        FetchCall call;
        try {
            call = new FetchCall(OutgoingRequest.of(request, defaultHeaders, config.proxy() != null));
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
        lifecycle.submit(call);
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

    /** {@link #close(Duration) Closes}, waiting at most {@link #CLOSE_WAIT}. */
    @Override
    public void close() {
        close(CLOSE_WAIT);
    }

    /**
     * Ends waiting and running fetches as {@link FetchError#CANCELLED}, closes every connection and the threads, within
     * about {@code wait}: the network threads are given up to {@link #THREADS_STOP} of it, the fetches running the rest.
     */
    public void close(Duration wait) {
        Duration threads = wait.compareTo(THREADS_STOP) < 0 ? wait : THREADS_STOP;
        for (FetchCall waiting : dispatcher.close()) {
            lifecycle.reject(waiting, FetchError.CANCELLED, "the fetcher was closed");
        }
        lifecycle.abortAll("the fetcher was closed", wait.minus(threads));
        resolver.close();
        group.shutdownGracefully(0, threads.toMillis(), TimeUnit.MILLISECONDS).syncUninterruptibly();
    }
}
