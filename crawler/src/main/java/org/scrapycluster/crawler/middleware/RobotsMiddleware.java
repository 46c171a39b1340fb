package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import crawlercommons.robots.BaseRobotRules;

/**
 * {@code robots}: drops a request robots.txt forbids (when {@code ROBOTSTXT_OBEY} is on), and tells the
 * domain's throttle the host's {@code Crawl-delay}, which the throttle waits for while a domain's robots.txt is
 * unread (docs/throttling.md).
 */
public final class RobotsMiddleware extends NodeMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(RobotsMiddleware.class);

    @Override
    public String name() {
        return "robots";
    }

    @Override
    protected void opened() {
        if (context().robotsObey()) {
            context().throttles().awaitRobots();
        }
    }

    @Override
    public CompletableFuture<DownloadStep> beforeRequest(DownloadRequest request) {
        if (!context().robotsObey()) {
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
        }
        String host;
        try {
            host = UrlParts.split(request.url()).netloc().toLowerCase(Locale.ROOT);
        } catch (InvalidUrlException e) {
            // no robots.txt speaks for it; the fetcher refuses it, which ends the request instead of failing its passage
            return CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
        }
        return context().robots().rulesFor(request.url()).thenApply(rules -> {
            noteCrawlDelay(request, host, rules);
            if (rules.isAllowed(UrlEscaper.escape(request.url()))) {
                return new DownloadStep.Proceed(request);
            }
            context().metrics().robotsRefused();
            LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("appid", request.meta().get("appid"))
                    .addKeyValue("crawlid", request.meta().get("crawlid")).log("Forbidden by robots.txt");
            return new DownloadStep.Drop("forbidden by robots.txt");
        });
    }

    private void noteCrawlDelay(DownloadRequest request, String host, BaseRobotRules rules) {
        long delayMillis = rules.getCrawlDelay();
        context().throttles().crawlDelay(request.domain(), host, delayMillis > 0 ? Duration.ofMillis(delayMillis) : Duration.ZERO);
    }
}
