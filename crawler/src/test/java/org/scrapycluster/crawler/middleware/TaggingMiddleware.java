package org.scrapycluster.crawler.middleware;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.DownloaderMiddleware;

/**
 * A user's downloader middleware as a test sees one: sets {@code X-Tag} on every request to the Cookie
 * header it finds ({@code none} when there is none), which shows whether it ran before or after {@code cookies}.
 */
public final class TaggingMiddleware implements DownloaderMiddleware {

    @Override
    public String name() {
        return "tagging";
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        List<String> cookies = request.headers().getOrDefault("Cookie", List.of());
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(
                request.withHeader("X-Tag", cookies.isEmpty() ? "none" : String.join("; ", cookies))));
    }
}
