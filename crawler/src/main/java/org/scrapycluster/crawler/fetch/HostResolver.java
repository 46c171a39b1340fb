package org.scrapycluster.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Resolves host names off the network threads: the JVM resolver (and its cache) blocks, so lookups run on
 * a few threads of their own. Address literals ({@link IpLiterals}, which knows {@code 127.1} and
 * {@code 0x7f000001}) need no lookup. Each call resolves once; the caller connects to the address it got.
 */
final class HostResolver implements AutoCloseable {

    private final ExecutorService executor;

    HostResolver(int threads) {
        this.executor = Executors.newFixedThreadPool(threads, new DefaultThreadFactory("fetcher-dns", true));
    }

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
