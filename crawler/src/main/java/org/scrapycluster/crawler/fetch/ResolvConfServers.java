package org.scrapycluster.crawler.fetch;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.netty.resolver.dns.DnsServerAddressStream;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.resolver.dns.UnixResolverDnsServerAddressStreamProvider;
import io.netty.util.NetUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DNS servers named in a {@code resolv.conf} file, for {@link HostResolver}: each reading of the file is
 * parsed once, and the file is read again when the last reading is {@link #REREAD_NANOS 5 minutes} old (as the
 * JDK's resolver read it). While the file names no server, or cannot be read, the local machine's port 53 is asked,
 * as the C library does, with one WARN each time the file turns out to name none.
 */
final class ResolvConfServers implements DnsServerAddressStreamProvider {

    private static final Logger LOG = LoggerFactory.getLogger(ResolvConfServers.class);
    /** How old a reading of the file may get before the file is read again. */
    static final long REREAD_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** Where the C library sends queries when {@code resolv.conf} names no server. */
    static final InetSocketAddress LOCAL = new InetSocketAddress(NetUtil.LOCALHOST4, 53);

    private final File file;
    private final LongSupplier nanoClock;
    private final AtomicLong readAt;
    private volatile DnsServerAddressStreamProvider servers;
    /** Whether the last reading named no server. */
    private volatile boolean local;

    /** @param nanoClock {@link System#nanoTime()}, or a clock of the test's */
    ResolvConfServers(File file, LongSupplier nanoClock) {
        this.file = file;
        this.nanoClock = nanoClock;
        this.readAt = new AtomicLong(nanoClock.getAsLong());
        this.servers = read();
    }

    @Override
    public DnsServerAddressStream nameServerAddressStream(String hostname) {
        long last = readAt.get();
        long now = nanoClock.getAsLong();
        if (now - last >= REREAD_NANOS && readAt.compareAndSet(last, now)) {
            servers = read(); // the one reader; lookups meanwhile use the previous reading
        }
        return servers.nameServerAddressStream(hostname);
    }

    private DnsServerAddressStreamProvider read() {
        try {
            DnsServerAddressStreamProvider named = new UnixResolverDnsServerAddressStreamProvider(file);
            local = false;
            return named;
        } catch (IOException | IllegalArgumentException none) {
            if (!local) {
                LOG.atWarn().addKeyValue("resolv_conf", file).addKeyValue("reason", none.getMessage())
                        .log("No DNS server in " + file + "; asking " + LOCAL + ", as the C library does");
            }
            local = true;
            return new SingletonDnsServerAddressStreamProvider(LOCAL);
        }
    }
}
