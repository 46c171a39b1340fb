package org.scrapycluster.embedded.origin;

import java.net.InetAddress;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;

/** The pipeline of one connection to the origin: TLS when asked for, HTTP/1.1, whole requests, routing. */
final class OriginChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** The name of the HTTP codec in the pipeline; raw writes start just below it. */
    static final String HTTP_CODEC = "http";

    private static final int MAX_REQUEST_BYTES = 1 << 20;

    private final SslContext tls;
    private final RouteTable routes;
    private final RequestLog log;
    private final ToIntFunction<InetAddress> domains;
    private final IntFunction<String> baseUrls;

    /** @param domains the origin's domain of the address a connection came to, -1 for none */
    OriginChannelInitializer(SslContext tls, RouteTable routes, RequestLog log, ToIntFunction<InetAddress> domains,
            IntFunction<String> baseUrls) {
        this.tls = tls;
        this.routes = routes;
        this.log = log;
        this.domains = domains;
        this.baseUrls = baseUrls;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc()));
        }
        pipeline.addLast(HTTP_CODEC, new HttpServerCodec());
        pipeline.addLast("aggregate", new HttpObjectAggregator(MAX_REQUEST_BYTES));
        pipeline.addLast("route", new OriginHandler(routes, log, domains, baseUrls));
    }
}
