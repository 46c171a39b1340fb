package org.scrapycluster.crawler.middleware;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;

/** A user's downloader middleware whose service is down, as a test sees one: its {@code beforeRequest} fails its future. */
public final class UnavailableMiddleware implements DownloaderMiddleware {

    @Override
    public String name() {
        return "unavailable";
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        return CompletableFuture.failedFuture(new IllegalStateException("the proxy pool is down"));
    }
}
