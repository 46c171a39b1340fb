package org.scrapycluster.crawler.fetch;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.resolver.dns.DnsCnameCache;
import io.netty.resolver.dns.DnsErrorCauseException;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * Resolves host names without blocking a thread: Netty's DNS client on one of the fetcher's event loops, so a
 * name whose DNS servers never answer holds no thread and delays no other name's lookup. Address literals
 * ({@link IpLiterals}, which knows {@code 127.1} and {@code 0x7f000001}) need no lookup. Each call resolves
 * once and the caller connects to the address it got (the {@link AddressPolicy} is checked on that address).
 *
 * <ul>
 * <li>Names in {@code /etc/hosts} (read once, when the first fetcher starts) are answered from it, so
 * {@code localhost} never reaches a DNS server.</li>
 * <li>The DNS servers are those of {@code /etc/resolv.conf} ({@link ResolvConfServers}: read again every 5 minutes;
 * when it names no server, the local machine's port 53 is asked, as the C library does), or
 * {@link FetcherConfig#nameServers()} when set; the file's {@code search} domains and {@code ndots} apply (read
 * once).
 * The JDK's resolver is not kept as a fallback: on Linux it asked the same servers through the C library, and a
 * fallback on its blocking threads would bring back the stall this class removes; names that only other
 * {@code nsswitch.conf} sources (LDAP, mDNS) know are no longer found.</li>
 * <li>Concurrent lookups of one name share one lookup. Each server is asked once, in turn, and given half the
 * connect timeout to answer (5 s with {@code DOWNLOAD_TIMEOUT: 10}, the C library's default), so a lookup with
 * one or two servers ends within the connect timeout. However many servers there are, a lookup ends after
 * {@link FetcherConfig#dnsTimeout()} (Scrapy's {@code DNS_TIMEOUT}, 60 s) at most, as if no server had answered;
 * the fetch's total timeout may end the wait sooner for the caller. The {@code timeout} and {@code attempts}
 * options of {@code /etc/resolv.conf} are not read.</li>
 * <li>Answers are cached as the JVM's resolver cached them: for the record's TTL but at most 30 s
 * ({@code networkaddress.cache.ttl}), a name that does not exist for 10 s ({@code networkaddress.cache.negative.ttl}).
 * So are the aliases (CNAME records) an answer went through and the servers a name was referred to: a record's TTL
 * may say years, and a site whose every host name is an alias would otherwise leave an entry each for good.
 * A timeout is not cached.</li>
 * <li>A failed lookup is an {@link UnknownHostException} with the C library's words, as the JDK's resolver
 * gave it: {@code "name: Name or service not known"} when the servers say the name has no address,
 * {@code "name: Temporary failure in name resolution"} when they did not answer in time or failed.</li>
 * </ul>
 */
final class HostResolver implements AutoCloseable {

    private static final File RESOLV_CONF = new File("/etc/resolv.conf");
    private static final int MAX_TTL_SECONDS = 30;
    private static final int NEGATIVE_TTL_SECONDS = 10;

    private final DnsNameResolver dns;
    private final EventLoop loop;
    private final Duration lookupTimeout;
    private final ConcurrentHashMap<String, CompletableFuture<InetAddress>> inFlight = new ConcurrentHashMap<>();

    /**
     * @param loop         the event loop that sends the queries and reads the answers
     * @param datagramType the UDP channel type of {@code loop}'s transport
     * @param streamType   the TCP channel type of that transport, for answers too large for a datagram
     */
    HostResolver(FetcherConfig config, EventLoop loop, Class<? extends DatagramChannel> datagramType,
            Class<? extends SocketChannel> streamType) {
        this.loop = loop;
        this.lookupTimeout = config.dnsTimeout();
        this.dns = new DnsNameResolverBuilder(loop)
                .datagramChannelType(datagramType)
                .socketChannelType(streamType)
                .nameServerProvider(nameServers(config.nameServers()))
                .queryTimeoutMillis(Math.max(1, config.connectTimeout().toMillis() / 2))
                .ttl(0, MAX_TTL_SECONDS)
                .negativeTtl(NEGATIVE_TTL_SECONDS)
                .build();
    }

    private static DnsServerAddressStreamProvider nameServers(List<InetSocketAddress> configured) {
        return configured.isEmpty() ? new ResolvConfServers(RESOLV_CONF, System::nanoTime)
                : new SequentialDnsServerAddressStreamProvider(configured);
    }

    /** The aliases (CNAME records) the DNS client remembers, each for at most 30 s. */
    DnsCnameCache aliases() {
        return dns.cnameCache();
    }

    /** The address of {@code host}; fails with an {@link UnknownHostException} when it has none. */
    CompletableFuture<InetAddress> resolve(String host) {
        InetAddress literal;
        try {
            literal = IpLiterals.parse(host);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new UnknownHostException(e.getMessage()));
        }
        if (literal != null) {
            return CompletableFuture.completedFuture(literal);
        }
        CompletableFuture<InetAddress> mine = new CompletableFuture<>();
        CompletableFuture<InetAddress> shared = inFlight.putIfAbsent(host, mine);
        if (shared == null) {
            lookUp(host, mine);
            shared = mine;
        }
        return shared.copy();
    }

    private void lookUp(String host, CompletableFuture<InetAddress> result) {
        result.whenComplete((address, failure) -> inFlight.remove(host, result));
        Future<List<InetAddress>> lookup = dns.resolveAll(host);
        if (lookup.isDone()) { // /etc/hosts or the cache answered: no deadline to keep
            complete(host, lookup, result);
            return;
        }
        ScheduledFuture<?> deadline = loop.schedule(() -> {
            if (result.completeExceptionally(unresolvable(host, new TimeoutException(
                    "no answer within DNS_TIMEOUT (" + lookupTimeout.toMillis() / 1000.0 + " s)")))) {
                lookup.cancel(false); // no further server is asked
            }
        }, lookupTimeout.toNanos(), TimeUnit.NANOSECONDS);
        lookup.addListener((Future<List<InetAddress>> done) -> {
            deadline.cancel(false);
            complete(host, done, result);
        });
    }

    private static void complete(String host, Future<List<InetAddress>> lookup, CompletableFuture<InetAddress> result) {
        if (lookup.isSuccess()) {
            result.complete(lookup.getNow().getFirst());
        } else {
            result.completeExceptionally(unresolvable(host, lookup.cause()));
        }
    }

    /** The failure to give for {@code host}, from Netty's. */
    private static UnknownHostException unresolvable(String host, Throwable cause) {
        UnknownHostException failure = new UnknownHostException(host + (noSuchName(cause)
                ? ": Name or service not known" : ": Temporary failure in name resolution"));
        failure.initCause(cause);
        return failure;
    }

    /**
     * Whether the servers answered that the name has no address: Netty's failure then has no cause (no record of
     * the kind, or a cached answer) or an NXDOMAIN; a timeout, a SERVFAIL or a transport error is its cause.
     */
    private static boolean noSuchName(Throwable failure) {
        Throwable cause = failure.getCause();
        return failure instanceof UnknownHostException && (cause == null
                || cause instanceof DnsErrorCauseException error && DnsResponseCode.NXDOMAIN.equals(error.getCode()));
    }

    /** Closes the DNS client; lookups in progress fail. */
    @Override
    public void close() {
        dns.close();
    }
}
