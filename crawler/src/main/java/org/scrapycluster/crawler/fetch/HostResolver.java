package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Resolves host names off the network threads: the JVM resolver (and its cache) blocks, so lookups run on
 * a few threads of their own. Address literals need no lookup.
 */
final class HostResolver implements AutoCloseable {

    private final ExecutorService executor;

    HostResolver(int threads) {
        this.executor = Executors.newFixedThreadPool(threads, new DefaultThreadFactory("fetcher-dns", true));
    }

    CompletableFuture<InetAddress> resolve(String host) {
        InetAddress literal = NetUtil.createInetAddressFromIpAddressString(host);
        if (literal != null) {
            return CompletableFuture.completedFuture(literal);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                throw new CompletionException(e);
            }
        }, executor);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
