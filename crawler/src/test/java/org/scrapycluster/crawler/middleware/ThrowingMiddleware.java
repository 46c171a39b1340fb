package org.scrapycluster.crawler.middleware;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;

/** A user's downloader middleware with a bug, as a test sees one: its {@code beforeRequest} throws. */
public final class ThrowingMiddleware implements DownloaderMiddleware {

    @Override
    public String name() {
        return "throwing";
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        throw new IllegalStateException("a bug");
    }
}
