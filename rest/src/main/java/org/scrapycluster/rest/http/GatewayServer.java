package org.scrapycluster.rest.http;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.WriteTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The gateway's HTTP/1.1 server: one listening socket, a small event loop that only decodes and
 * writes, whole requests of at most {@code maxBodyBytes}, the {@link Dispatcher} answering on the
 * executor. No client holds more than its share ({@link ServerLimits}): connections are capped
 * ({@link ConnectionLimit}), each must send its headers and bodies in time ({@link RequestTimeouts}) and take its
 * answers in time ({@code REST_SEND_TIMEOUT}), is
 * read only while it has fewer than the cap of requests being answered ({@link PipelineLimit};
 * auto-read is off, and one socket read takes at most {@value #MAX_READ_BYTES} bytes), and is
 * closed after a while without a byte from the client while it is owed no answer ({@link IdleTimeout}). A stopping
 * server writes the answers it owes before it closes the connections ({@link InFlight}). Serving HTTPS, each
 * connection begins with {@link HttpsOnly}, which decrypts it before any of the above sees a byte.
 */
public final class GatewayServer {

    private static final int IO_THREADS = 2;
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADER_BYTES = 8192;
    private static final int MAX_READ_BYTES = 16384;
    /** The shortest request Netty decodes: {@code A / HTTP/1.1\n\n}. */
    private static final int MIN_REQUEST_BYTES = 14;

    private final EventLoopGroup group;
    private final Channel listener;
    private final InFlight inFlight;

    private GatewayServer(EventLoopGroup group, Channel listener, InFlight inFlight) {
        this.group = group;
        this.listener = listener;
        this.inFlight = inFlight;
    }

    /**
     * Listens on {@code address} (port 0 picks a free one).
     *
     * @param tls    the TLS context of a connection opened now, for HTTPS; null for plain HTTP
     * @param meters where {@code rest.http.connections} (open connections),
     *               {@code rest.http.pipelined} (requests a connection holds as one more arrives) and, for HTTPS,
     *               {@code rest.tls.handshakes.failed} go
     *
     * @throws io.netty.channel.ChannelException or another runtime exception when the address cannot be bound
     */
    public static GatewayServer start(InetSocketAddress address, ServerLimits limits, Supplier<SslContext> tls, Dispatcher dispatcher,
            Executor executor, MeterRegistry meters) {
        AtomicInteger open = new AtomicInteger();
        Gauge.builder("rest.http.connections", open, AtomicInteger::get).description("HTTP connections open")
                .strongReference(true).register(meters);
        DistributionSummary pipelined = DistributionSummary.builder("rest.http.pipelined")
                .description("Requests a connection holds (being answered or waiting) as one more arrives")
                .register(meters);
        Counter failedHandshakes = tls == null ? null : Counter.builder("rest.tls.handshakes.failed")
                .description("TLS handshakes that failed: a client refusing the certificate, or without one where one is required")
                .register(meters);
        InFlight inFlight = new InFlight();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(IO_THREADS, new DefaultThreadFactory("rest-http", true),
                NioIoHandler.newFactory());
        try {
            Channel listener = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.AUTO_READ, false)
                    // a client's half-close still gets the answers of what it sent (PipelineLimit)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childOption(ChannelOption.RECVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 2048, MAX_READ_BYTES))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            PipelineLimit pipelineLimit = new PipelineLimit(limits.maxPipelined(), limits.maxBodyBytes(), pipelined);
                            // Netty's own cap on requests decoded and not yet answered: beyond it the connection is
                            // closed. The read gate keeps a connection far below it; this is the ceiling.
                            int pipelineDepth = limits.maxPipelined() + MAX_READ_BYTES / MIN_REQUEST_BYTES + 1;
                            if (tls != null) {
                                channel.pipeline().addLast("https", new HttpsOnly(tls.get(), failedHandshakes));
                            }
                            channel.pipeline()
                                    .addLast("read-gate", pipelineLimit.readGate())
                                    // a client that does not take its answers holds no connection for long: the
                                    // connection is closed once a write has waited that long for it
                                    .addLast("send-timeout",
                                            new WriteTimeoutHandler(limits.sendTimeout().toMillis(), TimeUnit.MILLISECONDS))
                                    .addLast("idle", new IdleTimeout(limits.idleTimeout(), pipelineLimit))
                                    .addLast("http", new HttpServerCodec(new HttpDecoderConfig().setMaxInitialLineLength(MAX_INITIAL_LINE)
                                            .setMaxHeaderSize(MAX_HEADER_BYTES).setMaxChunkSize(8192), pipelineDepth))
                                    .addLast("connections", new ConnectionLimit(limits.maxConnections(), open, dispatcher))
                                    .addLast("request-timeouts",
                                            new RequestTimeouts(limits.headerTimeout(), limits.bodyTimeout(), dispatcher))
                                    .addLast("admission", new Admission(dispatcher, tls != null))
                                    .addLast("aggregate", new BoundedAggregator(limits.maxBodyBytes(), pipelineLimit))
                                    .addLast("pipeline-limit", pipelineLimit)
                                    .addLast("dispatch", new GatewayHandler(dispatcher, executor, inFlight));
                        }
                    })
                    .bind(address).syncUninterruptibly().channel();
            return new GatewayServer(group, listener, inFlight);
        } catch (Exception e) {
            // also the BindException Netty rethrows undeclared
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The address listened on, with the port actually bound. */
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /**
     * Stops listening, lets the answers owed be worked out and written for at most {@code drain} ({@link InFlight}),
     * then closes every connection.
     *
     * @return whether every answer owed was written
     */
    public boolean close(Duration drain) {
        listener.close().syncUninterruptibly();
        boolean drained;
        try {
            drained = inFlight.drain(drain);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        return drained;
    }
}
