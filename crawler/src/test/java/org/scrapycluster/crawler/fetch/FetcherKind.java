package org.scrapycluster.crawler.fetch;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

/** The fetcher implementations the compatibility tests run against. */
enum FetcherKind {
    NETTY(config -> {
        HttpFetcher fetcher = new HttpFetcher(config);
        return new OpenFetcher(fetcher, fetcher, fetcher::inflatedBytes);
    }),
    REACTOR(config -> {
        ReactorFetcher fetcher = new ReactorFetcher(config);
        return new OpenFetcher(fetcher, fetcher, fetcher::inflatedBytes);
    });

    private final Function<FetcherConfig, OpenFetcher> opener;

    FetcherKind(Function<FetcherConfig, OpenFetcher> opener) {
        this.opener = opener;
    }

    OpenFetcher open(FetcherConfig config) {
        return opener.apply(config);
    }

    /** A started fetcher of either kind, with what the tests read of it. */
    record OpenFetcher(Fetcher fetcher, AutoCloseable closer, LongSupplier inflated) implements Fetcher, AutoCloseable {

        @Override
        public CompletableFuture<FetchResult> fetch(FetchRequest request) {
            return fetcher.fetch(request);
        }

        long inflatedBytes() {
            return inflated.getAsLong();
        }

        /** The hand-written fetcher, for the tests of its pools and limits. */
        HttpFetcher netty() {
            return (HttpFetcher) fetcher;
        }

        @Override
        public void close() {
            try {
                closer.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
