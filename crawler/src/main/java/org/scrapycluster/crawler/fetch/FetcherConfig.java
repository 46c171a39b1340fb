package org.scrapycluster.crawler.fetch;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How an {@link HttpFetcher} behaves. Build one with {@link #builder()}; every value has a default.
 *
 * @param maxConnections        fetches in progress at once, over all hosts (more wait their turn)
 * @param maxConnectionsPerHost fetches in progress at once per scheme, host and port (one connection each)
 * @param connectTimeout        to connect and finish a proxy tunnel and TLS handshake; half of it is the longest
 *                              each DNS server is given to answer
 * @param dnsTimeout            the longest a DNS lookup takes, over all servers (Scrapy's DNS_TIMEOUT)
 * @param readTimeout           the longest silence while waiting for or reading the response
 * @param totalTimeout          the longest a fetch may take once it has a slot (Scrapy's DOWNLOAD_TIMEOUT)
 * @param maxBodyBytes          the largest (decompressed) body read; a longer one is cut and reported TOO_LARGE,
 *                              unless the request cuts the body itself ({@link FetchRequest#bodyCut()})
 * @param warnBodyBytes         a body announced or read larger than this is said at WARN (Scrapy's DOWNLOAD_WARNSIZE); 0
 *                              for never
 * @param userAgent             the User-Agent of requests that do not bring their own
 * @param addressPolicy         which resolved addresses may be connected to
 * @param proxy                 the HTTP proxy to go through, or null
 * @param trustAllCertificates  accept any server certificate — for tests only
 * @param trustedCertificates   when not empty, the only trust anchors (instead of the JVM's)
 * @param idleConnectionTimeout how long a kept-alive connection may wait for its next request
 * @param maxIdleConnections    kept-alive connections over all hosts; past it, finished connections close
 * @param ioThreads             network threads
 * @param nameServers           the DNS servers asked, in turn, for host names not in /etc/hosts; empty for those of
 *                              /etc/resolv.conf
 * @param nativeTransport       use Linux epoll when available instead of Java NIO
 */
public record FetcherConfig(int maxConnections, int maxConnectionsPerHost, Duration connectTimeout,
        Duration dnsTimeout, Duration readTimeout, Duration totalTimeout, long maxBodyBytes, long warnBodyBytes, String userAgent,
        AddressPolicy addressPolicy, ProxyConfig proxy, boolean trustAllCertificates, List<X509Certificate> trustedCertificates,
        Duration idleConnectionTimeout, int maxIdleConnections, int ioThreads, List<InetSocketAddress> nameServers,
        boolean nativeTransport) {

    /** Scrapy's default User-Agent, which the Python crawlers send. */
    public static final String SCRAPY_USER_AGENT = "Scrapy/1.5.0 (+https://scrapy.org)";
    /** The largest body a fetch can hold: one byte array. */
    public static final long LARGEST_BODY = Integer.MAX_VALUE - 16;

    public FetcherConfig {
        positive("maxConnections", maxConnections);
        positive("maxConnectionsPerHost", maxConnectionsPerHost);
        positive("connectTimeout", connectTimeout);
        positive("dnsTimeout", dnsTimeout);
        positive("readTimeout", readTimeout);
        positive("totalTimeout", totalTimeout);
        positive("idleConnectionTimeout", idleConnectionTimeout);
        if (maxBodyBytes <= 0 || maxBodyBytes > LARGEST_BODY) {
            throw new IllegalArgumentException("maxBodyBytes must be from 1 to " + LARGEST_BODY + ": " + maxBodyBytes);
        }
        if (warnBodyBytes < 0) {
            throw new IllegalArgumentException("warnBodyBytes must not be negative: " + warnBodyBytes);
        }
        if (maxIdleConnections < 0) {
            throw new IllegalArgumentException("maxIdleConnections must not be negative: " + maxIdleConnections);
        }
        positive("ioThreads", ioThreads);
        Objects.requireNonNull(userAgent, "userAgent");
        Objects.requireNonNull(addressPolicy, "addressPolicy");
        trustedCertificates = List.copyOf(trustedCertificates);
        nameServers = List.copyOf(nameServers);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every setting at its default. */
    public static FetcherConfig defaults() {
        return builder().build();
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration: " + value);
        }
    }

    /** Collects settings; the defaults follow Scrapy's where it has one (10 s timeout, 60 s DNS timeout, 8 per host). */
    public static final class Builder {
        private int maxConnections = 512;
        private int maxConnectionsPerHost = 8;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration dnsTimeout = Duration.ofSeconds(60);
        private Duration readTimeout = Duration.ofSeconds(10);
        private Duration totalTimeout = Duration.ofSeconds(10);
        private long maxBodyBytes = 10L << 20;
        private long warnBodyBytes = 32L << 20;
        private String userAgent = SCRAPY_USER_AGENT;
        private AddressPolicy addressPolicy = AddressPolicy.any();
        private ProxyConfig proxy;
        private boolean trustAllCertificates;
        private List<X509Certificate> trustedCertificates = List.of();
        private Duration idleConnectionTimeout = Duration.ofSeconds(30);
        private int maxIdleConnections = 1024;
        private int ioThreads = Runtime.getRuntime().availableProcessors();
        private List<InetSocketAddress> nameServers = List.of();
        private boolean nativeTransport = true;

        private Builder() {
        }

        public Builder maxConnections(int value) {
            this.maxConnections = value;
            return this;
        }

        public Builder maxConnectionsPerHost(int value) {
            this.maxConnectionsPerHost = value;
            return this;
        }

        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
            return this;
        }

        public Builder dnsTimeout(Duration value) {
            this.dnsTimeout = value;
            return this;
        }

        public Builder readTimeout(Duration value) {
            this.readTimeout = value;
            return this;
        }

        public Builder totalTimeout(Duration value) {
            this.totalTimeout = value;
            return this;
        }

        public Builder maxBodyBytes(long value) {
            this.maxBodyBytes = value;
            return this;
        }

        public Builder warnBodyBytes(long value) {
            this.warnBodyBytes = value;
            return this;
        }

        public Builder userAgent(String value) {
            this.userAgent = value;
            return this;
        }

        public Builder addressPolicy(AddressPolicy value) {
            this.addressPolicy = value;
            return this;
        }

        public Builder proxy(ProxyConfig value) {
            this.proxy = value;
            return this;
        }

        /** Accepts any server certificate. Never in production: it makes HTTPS as safe as HTTP. */
        public Builder trustAllCertificates(boolean value) {
            this.trustAllCertificates = value;
            return this;
        }

        public Builder trustedCertificates(List<X509Certificate> value) {
            this.trustedCertificates = value;
            return this;
        }

        public Builder idleConnectionTimeout(Duration value) {
            this.idleConnectionTimeout = value;
            return this;
        }

        public Builder maxIdleConnections(int value) {
            this.maxIdleConnections = value;
            return this;
        }

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        public Builder nameServers(List<InetSocketAddress> value) {
            this.nameServers = value;
            return this;
        }

        public Builder nativeTransport(boolean value) {
            this.nativeTransport = value;
            return this;
        }

        public FetcherConfig build() {
            return new FetcherConfig(maxConnections, maxConnectionsPerHost, connectTimeout, dnsTimeout, readTimeout, totalTimeout,
                    maxBodyBytes, warnBodyBytes, userAgent, addressPolicy, proxy, trustAllCertificates, trustedCertificates,
                    idleConnectionTimeout, maxIdleConnections, ioThreads, nameServers, nativeTransport);
        }
    }
}
