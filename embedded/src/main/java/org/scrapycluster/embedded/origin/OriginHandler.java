package org.scrapycluster.embedded.origin;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;

/** Records each request that reaches the origin and hands it to the route mounted for its path. */
final class OriginHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final AtomicLong CONNECTIONS = new AtomicLong();

    private final RouteTable routes;
    private final RequestLog log;
    private final ToIntFunction<InetAddress> domains;
    private final IntFunction<String> baseUrls;
    private long connectionId;

    OriginHandler(RouteTable routes, RequestLog log, ToIntFunction<InetAddress> domains, IntFunction<String> baseUrls) {
        this.routes = routes;
        this.log = log;
        this.domains = domains;
        this.baseUrls = baseUrls;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connectionId = CONNECTIONS.incrementAndGet();
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
        RecordedRequest recorded = new RecordedRequest(connectionId, domains.applyAsInt(local.getAddress()),
                local.getAddress().getHostAddress(), request.method().name(), request.uri(), headers(request),
                System.nanoTime(), Instant.now());
        log.add(recorded);
        boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
        Map<String, List<String>> params = new QueryStringDecoder(request.uri()).parameters();
        Exchange exchange = new Exchange(ctx, recorded, params, keepAlive, baseUrls);
        if (!request.decoderResult().isSuccess()) {
            exchange.sendText(400, "text/plain", "malformed request: " + request.decoderResult().cause());
            return;
        }
        Route route = routes.find(recorded.path());
        if (route == null) {
            exchange.sendText(404, "text/plain", "nothing at " + recorded.path());
            return;
        }
        try {
            route.serve(exchange);
        } catch (IllegalArgumentException e) {
            exchange.sendText(400, "text/plain", e.getMessage());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static Map<String, List<String>> headers(FullHttpRequest request) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        Map<String, String> namesSeen = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : request.headers()) {
            String name = namesSeen.computeIfAbsent(header.getKey().toLowerCase(Locale.ROOT),
                    lower -> header.getKey());
            headers.computeIfAbsent(name, n -> new ArrayList<>(1)).add(header.getValue());
        }
        headers.replaceAll((name, values) -> List.copyOf(values));
        return Collections.unmodifiableMap(headers);
    }
}
