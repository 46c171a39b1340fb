package org.scrapycluster.crawler.middleware;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code retries}: the original's Redis retry middleware ({@link RetryPolicy}, docs/compatibility.md §4.11).
 * A response with a status of {@code RETRY_HTTP_CODES}, or a network failure, is filed again as a retry;
 * a network failure with no retry left is given up (logged and counted as {@code gave_up}).
 */
public final class RetryMiddleware extends NodeMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(RetryMiddleware.class);

    @Override
    public String name() {
        return "retries";
    }

    @Override
    public CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
        Download download = Download.from(request, name());
        if (response.failed()) {
            return CompletableFuture.completedFuture(response.retryable() ? failed(download, response) : new DownloadStep.Proceed(download));
        }
        if (context().retry().retriesStatus(response.status())) {
            Optional<CrawlRequest> again = context().retry().retry(download.crawl());
            if (again.isPresent()) {
                context().metrics().retry();
                return CompletableFuture.completedFuture(new DownloadStep.Reschedule(download.withCrawl(again.get()), true));
            }
        }
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
    }

    private DownloadStep failed(Download download, DownloadResponse response) {
        CrawlRequest request = download.crawl();
        context().statusCounters().failedDownload();
        LOG.atError().addKeyValue("error_request", request.url()).addKeyValue("error_reason", response.failure().orElse(""))
                .addKeyValue("retry_count", request.number("retry_times", 0)).addKeyValue("status_code", CountedStatusCodes.FAILED_DOWNLOAD)
                .addKeyValue("appid", request.appid()).addKeyValue("crawlid", request.crawlid()).addKeyValue("url", request.url())
                .log("Scraper Retry");
        Optional<CrawlRequest> again = context().retry().retry(request);
        if (again.isEmpty()) {
            context().metrics().error("gave_up");
            LOG.atError().addKeyValue("url", request.url()).addKeyValue("appid", request.appid())
                    .addKeyValue("crawlid", request.crawlid()).addKeyValue("retry_count", request.number("retry_times", 0))
                    .log("Gave up on a request after its retries");
            return new DownloadStep.Drop("gave up after its retries");
        }
        context().metrics().retry();
        return new DownloadStep.Reschedule(download.withCrawl(again.get()), true);
    }
}
