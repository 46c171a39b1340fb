package org.scrapycluster.api;

import java.util.concurrent.CompletableFuture;

/**
 * A step around every download, as Scrapy's downloader middlewares are. The middlewares named in
 * {@code DOWNLOADER_MIDDLEWARES} (name → order, ascending; null removes one) see each request before it is
 * sent, in ascending order, and each response after it arrived, in descending order — the middleware with
 * the lowest order is closest to the scheduler, the highest closest to the network. The shipped ones are
 * {@code robots} (100), {@code retries} (500), {@code retry-after} (550), {@code meta-refresh} (580),
 * {@code redirects} (600) and {@code cookies} (700).
 *
 * <p>Each step answers with a {@link DownloadStep}: {@link DownloadStep.Proceed} hands the (possibly changed)
 * request on; {@link DownloadStep.Drop} ends the request without a result; {@link DownloadStep.Reschedule}
 * ends it and files another request into the crawl's queues instead (a retry, a redirect); {@link DownloadStep.PutBack}
 * ends it untried and returns it to its queue as it came out. A step that
 * throws, returns no future, or whose future fails or completes with {@code null} is counted as
 * {@code crawler_errors_total{kind="middleware"}} and logged (its stack trace once per kind of failure). When the step
 * failed its future itself (a service it asks is down), the request returns to its queue when its lease expires;
 * a throw or a {@code null}, a bug, gives the request up. A request or response is changed only through the
 * {@code with…} methods of the values given: a {@link DownloadRequest} of your own making is refused.
 */
public interface DownloaderMiddleware extends CrawlerExtension {

    /** Before {@code request} is sent; the default hands it on unchanged. */
    default CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
    }

    /**
     * After {@code response} to {@code request} arrived, or the download failed ({@link DownloadResponse#failed()}):
     * also unsent, when the built-in {@code robots} found the request's host could not be connected to a moment before
     * (docs/throttling.md, "Slow domains"); the default hands it on. A response that every middleware hands on goes to
     * the spider; a failed one is logged and dropped.
     */
    default CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
    }
}
