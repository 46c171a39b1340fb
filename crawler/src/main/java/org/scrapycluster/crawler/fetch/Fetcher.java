package org.scrapycluster.crawler.fetch;

import java.util.concurrent.CompletableFuture;

/**
 * What the crawler asks of an HTTP client: one request in, its result later. The future never fails
 * for a network error, a timeout or a refused address: those are results too ({@link FetchResult#ok()}
 * is false and {@link FetchResult#error()} says why), so a caller handles every outcome in one place.
 * {@link HttpFetcher} is the crawler's own; a test gives a lambda.
 */
@FunctionalInterface
public interface Fetcher {

    /** Sends {@code request} and completes with what came back. */
    CompletableFuture<FetchResult> fetch(FetchRequest request);
}
