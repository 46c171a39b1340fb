package org.scrapycluster.rest.http;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The gateway's HTTP/1.1 server: one listening socket, a small event loop that only decodes and
 * writes, whole requests of at most {@code maxBodyBytes}, the {@link Dispatcher} answering on the
 * executor, and connections closed after a while without a byte from the client (a slow or idle
 * client holds no socket for ever).
 */
public final class GatewayServer implements AutoCloseable {

    private static final int IO_THREADS = 2;
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADER_BYTES = 8192;

    private final EventLoopGroup group;
    private final Channel listener;

    private GatewayServer(EventLoopGroup group, Channel listener) {
        this.group = group;
        this.listener = listener;
    }

    /**
     * Listens on {@code address} (port 0 picks a free one).
     *
     * @param idleTimeout how long a connection may send nothing before it is closed; longer than
     *                    an endpoint may take to answer
     *
     * @throws io.netty.channel.ChannelException or another runtime exception when the address cannot be bound
     */
    public static GatewayServer start(InetSocketAddress address, int maxBodyBytes, Duration idleTimeout, Dispatcher dispatcher,
            Executor executor) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(IO_THREADS, new DefaultThreadFactory("rest-http", true),
                NioIoHandler.newFactory());
        try {
            Channel listener = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline()
                                    .addLast("idle", new ReadTimeoutHandler(idleTimeout.toMillis(), TimeUnit.MILLISECONDS))
                                    .addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 8192))
                                    .addLast("aggregate", new BoundedAggregator(maxBodyBytes, dispatcher))
                                    .addLast("dispatch", new GatewayHandler(dispatcher, executor));
                        }
                    })
                    .bind(address).syncUninterruptibly().channel();
            return new GatewayServer(group, listener);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The address listened on, with the port actually bound. */
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
