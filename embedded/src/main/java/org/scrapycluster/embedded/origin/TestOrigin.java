package org.scrapycluster.embedded.origin;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * An in-process HTTP server that serves a deterministic synthetic web on many loopback addresses — test
 * domain {@code i} listens on {@link LoopbackAddresses#of(int) 127.0.0.(i+2)}, or on the {@code i}-th address from the
 * one {@link Builder#firstAddress(int)} names, all on one port — so tests
 * and benchmarks crawl many "hosts" without touching the internet. It serves the pages of a
 * {@link SyntheticSite} at {@code /p/<n>}, the named routes ({@link SlowBody}, {@link TooManyRequests},
 * {@link FlakyThenOk}, {@link RedirectRoute}, {@link GzipRoute}, {@link DeflateRoute}, {@link HugePage}, {@link LinkFarm},
 * {@link CompressionBomb}, {@link NonUtf8Page}, {@link EchoHeaders}, {@link SetCookieRoute}, {@link StatusRoute},
 * {@link BrokenResponse}) at their {@code PATH} on every domain, a {@link RobotsTxt} per domain when one is
 * given, and records every request in a {@link RequestLog}. Optionally it also listens with TLS, with a
 * throw-away self-signed certificate, on a second port.
 *
 * <p>Requests are served one at a time per connection (no pipelining).
 */
public final class TestOrigin implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TestOrigin.class);
    private static final int BIND_ATTEMPTS = 10;

    private final int domains;
    private final int firstAddress;
    private final SyntheticSite site;
    private final RequestLog log;
    private final EventLoopGroup group;
    private final List<Channel> listeners = new ArrayList<>();
    private final SelfSignedTls tls;
    private int port;
    private int tlsPort = -1;

    private TestOrigin(Builder builder) {
        this.site = builder.site;
        this.domains = Math.max(builder.domains, site == null ? 1 : site.domains());
        this.firstAddress = builder.firstAddress;
        this.log = new RequestLog(builder.requestLogCapacity);
        this.tls = builder.tls ? SelfSignedTls.create(firstAddress, domains) : null;
        this.group = new MultiThreadIoEventLoopGroup(builder.ioThreads, new DefaultThreadFactory("test-origin", true),
                NioIoHandler.newFactory());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts an origin serving {@code site} with the standard routes. */
    public static TestOrigin start(SyntheticSite site) {
        return builder().site(site).start();
    }

    private void bind(Builder builder) {
        RouteTable routes = routes(builder);
        port = bindAll(builder.port, new OriginChannelInitializer(null, routes, log, this::domainOf, this::baseUrl));
        if (tls != null) {
            tlsPort = bindAll(0, new OriginChannelInitializer(tls.serverContext(), routes, log, this::domainOf, this::httpsBaseUrl));
        }
        LOG.info("Test origin serving {} domains on port {}{}", domains, port, tls == null ? "" : " and TLS port " + tlsPort);
    }

    private RouteTable routes(Builder builder) {
        RouteTable routes = new RouteTable();
        routes.mount(SlowBody.PATH, new SlowBody());
        routes.mount(TooManyRequests.PATH, new TooManyRequests());
        routes.mount(FlakyThenOk.PATH, new FlakyThenOk());
        routes.mount(RedirectRoute.PATH, new RedirectRoute());
        routes.mount(GzipRoute.PATH, new GzipRoute());
        routes.mount(DeflateRoute.PATH, new DeflateRoute());
        routes.mount(HugePage.PATH, new HugePage());
        routes.mount(LinkFarm.PATH, new LinkFarm());
        routes.mount(CompressionBomb.PATH, new CompressionBomb());
        routes.mount(NonUtf8Page.PATH, new NonUtf8Page());
        routes.mount(EchoHeaders.PATH, new EchoHeaders());
        routes.mount(SetCookieRoute.PATH, new SetCookieRoute());
        routes.mount(StatusRoute.PATH, new StatusRoute());
        routes.mount(BrokenResponse.PATH, new BrokenResponse());
        if (site != null) {
            routes.mount(SyntheticSite.PAGE_PREFIX.substring(0, SyntheticSite.PAGE_PREFIX.length() - 1), new SitePages(site));
        }
        Map<Integer, RobotsTxt> robots = new HashMap<>(builder.robots);
        RobotsTxt everywhere = builder.robotsForAll;
        if (everywhere != null || !robots.isEmpty()) {
            routes.mount(RobotsTxt.PATH, exchange -> {
                RobotsTxt file = robots.getOrDefault(exchange.domainIndex(), everywhere);
                if (file == null) {
                    exchange.sendText(404, "text/plain", "no robots.txt here");
                } else {
                    file.serve(exchange);
                }
            });
        }
        builder.routes.forEach(routes::mount);
        return routes;
    }

    /** Binds one listener per domain address, all on one port (a free one when {@code requested} is 0). */
    private int bindAll(int requested, OriginChannelInitializer initializer) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(initializer);
        for (int attempt = 1; ; attempt++) {
            List<Channel> bound = new ArrayList<>(domains);
            try {
                int chosen = requested;
                for (int i = 0; i < domains; i++) {
                    Channel channel = bootstrap.bind(new InetSocketAddress(LoopbackAddresses.address(firstAddress + i), chosen))
                            .syncUninterruptibly().channel();
                    bound.add(channel);
                    chosen = ((InetSocketAddress) channel.localAddress()).getPort();
                }
                listeners.addAll(bound);
                return chosen;
            } catch (RuntimeException e) {
                bound.forEach(channel -> channel.close().syncUninterruptibly());
                if (requested != 0 || attempt == BIND_ATTEMPTS) {
                    throw new IllegalStateException("test origin cannot listen on " + domains
                            + " loopback addresses at one port", e);
                }
                LOG.debug("port taken on some loopback address, trying another one", e);
            }
        }
    }

    /** The port every domain listens on for plain HTTP. */
    public int port() {
        return port;
    }

    /** The port every domain listens on for HTTPS, or -1 when TLS was not asked for. */
    public int tlsPort() {
        return tlsPort;
    }

    /** How many test domains (addresses) this origin serves. */
    public int domains() {
        return domains;
    }

    /** The host of domain {@code domain}: its dotted loopback address. */
    public String host(int domain) {
        return LoopbackAddresses.of(firstAddress + requireDomain(domain));
    }

    /** The domain that listens on {@code address}, or -1 when none of this origin's does. */
    private int domainOf(InetAddress address) {
        int domain = LoopbackAddresses.indexOf(address) - firstAddress;
        return domain >= 0 && domain < domains ? domain : -1;
    }

    /** {@code http://<host(domain)>:port}, by default {@code http://127.0.0.(domain+2):port}. */
    public String baseUrl(int domain) {
        return "http://" + host(domain) + ":" + port;
    }

    /** {@code https://<host(domain)>:tlsPort}, by default {@code https://127.0.0.(domain+2):tlsPort}. */
    public String httpsBaseUrl(int domain) {
        if (tls == null) {
            throw new IllegalStateException("this origin was started without TLS; ask for it with builder().tls()");
        }
        return "https://" + host(domain) + ":" + tlsPort;
    }

    /** The absolute URL of {@code pathAndQuery} on domain {@code domain}. */
    public String url(int domain, String pathAndQuery) {
        return baseUrl(domain) + pathAndQuery;
    }

    /** The absolute URL of a page of the synthetic site. */
    public String pageUrl(PageRef page) {
        return url(page.domain(), page.path());
    }

    /** The self-signed certificate of the HTTPS listeners, for clients that want to trust it. */
    public X509Certificate certificate() {
        if (tls == null) {
            throw new IllegalStateException("this origin was started without TLS; ask for it with builder().tls()");
        }
        return tls.certificate();
    }

    /** The synthetic site served at {@code /p/<n>}, or null when none was given. */
    public SyntheticSite site() {
        return site;
    }

    public RequestLog requests() {
        return log;
    }

    @Override
    public void close() {
        listeners.forEach(channel -> channel.close().syncUninterruptibly());
        listeners.clear();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private int requireDomain(int domain) {
        if (domain < 0 || domain >= domains) {
            throw new IllegalArgumentException("this origin serves domains 0 to " + (domains - 1) + ", not " + domain);
        }
        return domain;
    }

    /** Describes an origin; {@link #start()} binds it. */
    public static final class Builder {
        private SyntheticSite site;
        private int domains = 1;
        private int firstAddress;
        private int port;
        private boolean tls;
        private int ioThreads = Math.min(2, Runtime.getRuntime().availableProcessors());
        private int requestLogCapacity = 100_000;
        private RobotsTxt robotsForAll;
        private final Map<Integer, RobotsTxt> robots = new HashMap<>();
        private final Map<String, Route> routes = new HashMap<>();

        private Builder() {
        }

        /** Serves {@code value} at {@code /p/<n>} on its domains. */
        public Builder site(SyntheticSite value) {
            this.site = value;
            return this;
        }

        /** Listens on at least this many domain addresses (the site's domain count when larger). */
        public Builder domains(int value) {
            if (value < 1 || value > LoopbackAddresses.MAX_DOMAINS) {
                throw new IllegalArgumentException("domains must be from 1 to " + LoopbackAddresses.MAX_DOMAINS);
            }
            this.domains = value;
            return this;
        }

        /**
         * Listens with domain 0 on {@link LoopbackAddresses#of(int) the address of test domain {@code index}} and the others
         * on the addresses after it, instead of from 127.0.0.2 (index 0, the default): 9 puts 20 domains on 127.0.0.11 to
         * 127.0.0.30. Requests are still numbered by the origin's own domains, from 0.
         */
        public Builder firstAddress(int index) {
            LoopbackAddresses.of(index); // refuses an index outside the loopback addresses
            this.firstAddress = index;
            return this;
        }

        /** Listens on this port (0, the default, picks a free one). */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        /** Also listens with TLS on a second port, with a throw-away self-signed certificate. */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        /** How many requests the {@link RequestLog} keeps (older ones are dropped); 0 keeps none. */
        public Builder requestLogCapacity(int value) {
            this.requestLogCapacity = value;
            return this;
        }

        /** Serves {@code file} as {@code /robots.txt} on every domain without one of its own. */
        public Builder robots(RobotsTxt file) {
            this.robotsForAll = file;
            return this;
        }

        /** Serves {@code file} as {@code /robots.txt} on domain {@code domain}. */
        public Builder robots(int domain, RobotsTxt file) {
            robots.put(domain, file);
            return this;
        }

        /** Mounts {@code route} at {@code path} (and the paths below it), replacing a standard route there. */
        public Builder route(String path, Route route) {
            routes.put(path, route);
            return this;
        }

        public TestOrigin start() {
            TestOrigin origin = new TestOrigin(this);
            try {
                origin.bind(this);
                return origin;
            } catch (RuntimeException e) {
                origin.close();
                throw e;
            }
        }
    }
}
