package org.scrapycluster.crawler.fetch;

import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.netty.resources.ConnectionPoolMetrics;
import reactor.netty.resources.ConnectionProvider;

/**
 * The connection pools Reactor keeps, one per address, as it announces them when it makes one and forgets
 * them when it disposes of an unused one: what {@link ReactorFetcher#stats()} reads its connection counts
 * from.
 */
final class HostPools implements ConnectionProvider.MeterRegistrar {

    private final Map<String, ConnectionPoolMetrics> pools = new ConcurrentHashMap<>();

    @Override
    public void registerMetrics(String poolName, String id, SocketAddress remoteAddress, ConnectionPoolMetrics metrics) {
        pools.put(id, metrics);
    }

    @Override
    public void deRegisterMetrics(String poolName, String id, SocketAddress remoteAddress) {
        pools.remove(id);
    }

    /** The fetcher's load: {@code running} and {@code waiting} fetches, with the pools' connections. */
    FetcherStats stats(int running, int waiting) {
        int open = 0;
        int idle = 0;
        for (ConnectionPoolMetrics pool : pools.values()) {
            open += pool.allocatedSize();
            idle += pool.idleSize();
        }
        return new FetcherStats(running, waiting, open, idle, pools.size());
    }
}
