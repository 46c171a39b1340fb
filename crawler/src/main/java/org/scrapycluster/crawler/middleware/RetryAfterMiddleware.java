package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.api.DownloadStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code retry-after}: on a 429, or a 503 with {@code Retry-After}, pauses the domain cluster-wide (and on this node,
 * even when Redis refuses the pause) for the time {@link BackoffPolicy} gives and files a retry ({@link RetryPolicy});
 * with no retry left, the response goes on.
 */
public final class RetryAfterMiddleware extends NodeMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(RetryAfterMiddleware.class);

    @Override
    public String name() {
        return "retry-after";
    }

    @Override
    public CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
        Download download = Download.from(request, name());
        if (response.failed()) {
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
        }
        Optional<Duration> pause = context().backoff().pauseFor(response.status(), response.header("Retry-After").orElse(null),
                context().clock().instant());
        if (pause.isEmpty()) {
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
        }
        pauseDomain(download, response.status(), pause.get());
        return CompletableFuture.completedFuture(context().retry().retry(download.crawl()).<DownloadStep>map(again -> {
            context().metrics().retry();
            return new DownloadStep.Reschedule(download.withCrawl(again), true);
        }).orElse(new DownloadStep.Proceed(download)));
    }

    private void pauseDomain(Download download, int status, Duration pause) {
        LOG.atInfo().addKeyValue("url", download.url()).addKeyValue("status_code", status)
                .addKeyValue("pause_seconds", pause.toMillis() / 1000.0).addKeyValue("throttle_key", download.lease().throttle().throttleKey())
                .log("Server asked to back off; pausing the domain");
        pauseDomain(download, pause);
    }
}
