package org.scrapycluster.crawler.middleware;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadResponse;
import org.scrapycluster.api.DownloadStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code redirects}: files a redirect's target as a new request through the scheduler, and drops a request
 * redirected {@code REDIRECT_MAX_TIMES} times already ({@link RedirectPolicy}).
 */
public final class RedirectMiddleware extends NodeMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(RedirectMiddleware.class);

    @Override
    public String name() {
        return "redirects";
    }

    @Override
    public CompletableFuture<DownloadStep> afterResponse(DownloadRequest request, DownloadResponse response) {
        Download download = Download.from(request, name());
        if (response.failed()) {
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
        }
        Optional<String> location = ((FetchedResponse) response).result().redirectLocation();
        return CompletableFuture.completedFuture(step(context().redirect().decide(download.crawl(), response.status(), location),
                download, context()));
    }

    /** What a redirect's (or a meta refresh's) decision makes of {@code download}: a new request, a drop, or nothing. */
    static DownloadStep step(RedirectPolicy.Decision decision, Download download, MiddlewareContext context) {
        return switch (decision) {
            case RedirectPolicy.Follow follow -> {
                context.metrics().redirect();
                yield new DownloadStep.Reschedule(download.withCrawl(follow.request()), false);
            }
            case RedirectPolicy.TooMany tooMany -> {
                context.metrics().error("redirect_limit");
                LOG.atWarn().addKeyValue("url", download.url()).addKeyValue("redirects", tooMany.redirects())
                        .addKeyValue("crawlid", download.meta().get("crawlid")).log("Discarding request: max redirections reached");
                yield new DownloadStep.Drop("max redirections reached");
            }
            case RedirectPolicy.NotFollowed notFollowed -> new DownloadStep.Proceed(download);
        };
    }
}
