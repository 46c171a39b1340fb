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
        RedirectPolicy.Decision decision = context().redirect().decide(download.crawl(), response.status(), location);
        if (decision instanceof RedirectPolicy.Follow follow) {
            context().metrics().redirect();
            return CompletableFuture.completedFuture(new DownloadStep.Reschedule(download.withCrawl(follow.request()), false));
        }
        if (decision instanceof RedirectPolicy.TooMany tooMany) {
            context().metrics().error("redirect_limit");
            LOG.atWarn().addKeyValue("url", request.url()).addKeyValue("redirects", tooMany.redirects())
                    .addKeyValue("crawlid", request.meta().get("crawlid")).log("Discarding request: max redirections reached");
            return CompletableFuture.completedFuture(new DownloadStep.Drop("max redirections reached"));
        }
        return CompletableFuture.completedFuture(new DownloadStep.Proceed(download));
    }
}
