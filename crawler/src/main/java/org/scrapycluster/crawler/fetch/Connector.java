package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.NoopAddressResolverGroup;

/**
 * Opens connections: resolves the host (once per connection) and checks the address against the
 * {@link AddressPolicy}, connects to that address directly or through the proxy (a CONNECT tunnel for
 * HTTPS), and finishes the TLS handshake with SNI and, unless trust-all is on, certificate and host name
 * verification.
 */
final class Connector {

    private static final int MAX_INITIAL_LINE = 8 * 1024;
    /**
     * The most a response's header block may hold, all lines together: Chrome's limit, so that a site that works in a
     * browser (dozens of long Set-Cookie lines) is read here; Twisted under Scrapy caps each line at 16 KiB only.
     */
    private static final int MAX_HEADER_BYTES = 256 * 1024;
    private static final int MAX_CHUNK_BYTES = 64 * 1024;

    private final FetcherConfig config;
    private final Bootstrap bootstrap;
    private final HostResolver resolver;
    private final SslContext tls;
    private final Dispatcher dispatcher;
    private final String proxyAuthorization;
    private final LongAdder inflatedBytes;

    /** @param inflatedBytes counts the bytes inflated from compressed bodies */
    Connector(FetcherConfig config, EventLoopGroup group, Class<? extends Channel> channelType, HostResolver resolver,
            SslContext tls, Dispatcher dispatcher, LongAdder inflatedBytes) {
        this.config = config;
        this.inflatedBytes = inflatedBytes;
        this.resolver = resolver;
        this.tls = tls;
        this.dispatcher = dispatcher;
        ProxyConfig proxy = config.proxy();
        this.proxyAuthorization = proxy != null && proxy.hasCredentials() ? "Basic " + Base64.getEncoder().encodeToString(
                (proxy.username() + ":" + proxy.password()).getBytes(StandardCharsets.UTF_8)) : null;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(channelType)
                .resolver(NoopAddressResolverGroup.INSTANCE)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true);
    }

    /**
     * A connection ready for {@code call}'s request, or the reason there is none. With a policy that forbids
     * internal addresses the target host is resolved here, checked, and connected to at that very address
     * (through a proxy's CONNECT tunnel too); the proxy's own address, set by the operator, is not checked.
     */
    CompletableFuture<Channel> connect(FetchCall call) {
        CompletableFuture<Channel> ready = new CompletableFuture<>();
        ProxyConfig proxy = config.proxy();
        AddressPolicy policy = config.addressPolicy();
        boolean checkTarget = proxy == null || policy.forbidsInternal();
        CompletableFuture<InetAddress> target = checkTarget ? resolver.resolve(call.key.host())
                : CompletableFuture.completedFuture(null);
        target.whenComplete((address, failure) -> {
            if (failure != null) {
                ready.completeExceptionally(failure);
                return;
            }
            Optional<String> refusal = address == null ? Optional.empty() : policy.refusal(address);
            if (refusal.isPresent()) {
                String host = call.key.host();
                ready.completeExceptionally(new Failures.ForbiddenAddressException(
                        host.equals(address.getHostAddress()) ? refusal.get() : host + ": " + refusal.get()));
            } else if (proxy == null) {
                open(call, new InetSocketAddress(address, call.key.port()), null, null, ready);
            } else {
                resolver.resolve(proxy.host()).whenComplete((proxyAddress, proxyFailure) -> {
                    if (proxyFailure != null) {
                        ready.completeExceptionally(proxyFailure);
                    } else {
                        open(call, null, new InetSocketAddress(proxyAddress, proxy.port()), address, ready);
                    }
                });
            }
        });
        return ready;
    }

    /** @param checked the target's checked address, which a CONNECT tunnel asks for; null to ask by name */
    private void open(FetchCall call, InetSocketAddress direct, InetSocketAddress proxy, InetAddress checked,
            CompletableFuture<Channel> ready) {
        HostKey key = call.key;
        boolean tunnel = proxy != null && key.https();
        SocketAddress tunnelTarget = checked != null ? new InetSocketAddress(withoutName(checked), key.port())
                : InetSocketAddress.createUnresolved(key.host(), key.port());
        SocketAddress remote = direct != null ? direct : tunnel ? tunnelTarget : proxy;
        ChannelFuture connecting = bootstrap.clone().handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel channel) {
                pipeline(channel, key, tunnel ? proxy : null);
            }
        }).connect(remote);
        Channel channel = connecting.channel();
        channel.closeFuture().addListener(closed -> dispatcher.closed(key, channel));
        call.future.whenComplete((result, failure) -> {
            if (!ready.isDone()) {
                channel.close(); // the fetch ended (total timeout, cancelled) before its connection was ready
            }
        });
        connecting.addListener(connected -> {
            if (!connected.isSuccess()) {
                ready.completeExceptionally(connected.cause());
                return;
            }
            HttpProxyHandler proxyHandler = channel.pipeline().get(HttpProxyHandler.class);
            if (proxyHandler == null) {
                awaitHandshake(channel, ready);
                return;
            }
            proxyHandler.connectFuture().addListener(tunnelled -> {
                if (tunnelled.isSuccess()) {
                    awaitHandshake(channel, ready);
                } else {
                    channel.close();
                    ready.completeExceptionally(tunnelled.cause());
                }
            });
        });
    }

    /**
     * {@code address} without the host name it was resolved from: the proxy's handler asks for a tunnel by an address's
     * name when it has one, and the proxy would resolve the name anew, to an address nobody checked (DNS rebinding, or
     * a name the proxy's resolver answers otherwise).
     */
    private static InetAddress withoutName(InetAddress address) {
        try {
            return InetAddress.getByAddress(address.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address of " + address.getAddress().length + " bytes", e);
        }
    }

    private static void awaitHandshake(Channel channel, CompletableFuture<Channel> ready) {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (ssl == null) {
            ready.complete(channel);
            return;
        }
        ssl.handshakeFuture().addListener(handshake -> {
            if (handshake.isSuccess()) {
                ready.complete(channel);
            } else {
                channel.close();
                ready.completeExceptionally(handshake.cause());
            }
        });
    }

    private void pipeline(Channel channel, HostKey key, InetSocketAddress tunnelThrough) {
        ChannelPipeline pipeline = channel.pipeline();
        long connectMillis = config.connectTimeout().toMillis();
        if (tunnelThrough != null) {
            ProxyConfig proxy = config.proxy();
            HttpProxyHandler tunnel = proxy.hasCredentials()
                    ? new HttpProxyHandler(tunnelThrough, proxy.username(), proxy.password())
                    : new HttpProxyHandler(tunnelThrough);
            tunnel.setConnectTimeoutMillis(connectMillis);
            pipeline.addLast("proxy", tunnel);
        }
        if (key.https()) {
            SslHandler ssl = tls.newHandler(channel.alloc(), key.host(), key.port());
            ssl.setHandshakeTimeoutMillis(connectMillis);
            pipeline.addLast("tls", ssl);
        }
        ResponseDecoder responses = new ResponseDecoder(MAX_INITIAL_LINE, MAX_HEADER_BYTES, MAX_CHUNK_BYTES);
        pipeline.addLast("http-in", responses);
        pipeline.addLast("http-out", new HttpRequestEncoder());
        pipeline.addLast("exchange", new FetchHandler(config, responses, proxyAuthorization, inflatedBytes));
    }
}
