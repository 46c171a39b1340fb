package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import crawlercommons.robots.BaseRobotRules;

/**
 * {@code robots}: drops a request robots.txt forbids (when {@code ROBOTSTXT_OBEY} is on), and puts back one whose
 * host's server answers its robots.txt with an error until the file can be read, to the robot it is — its own
 * User-Agent's, unless {@code ROBOTSTXT_USER_AGENT} names one for all ({@link org.scrapycluster.crawler.robots.RobotName})
 * — and tells the domain's throttle the host's {@code Crawl-delay} for the node's own robot, which the throttle waits
 * for while a domain's robots.txt is unread (docs/throttling.md).
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
        RobotsCache robots = context().robots();
        // one fetch of the host's file answers both: the node's robot for the throttle, the request's for the verdict;
        // a request without a User-Agent of its own is the node's robot, looked up once
        CompletableFuture<BaseRobotRules> forNode = robots.rulesFor(request.url());
        String userAgent = userAgent(request);
        CompletableFuture<BaseRobotRules> forRequest = userAgent == null ? forNode : robots.rulesFor(request.url(), userAgent);
        return forNode.thenCombine(forRequest, (nodes, requests) -> {
            if (RobotsCache.unreachable(nodes)) {
                return untilReadable(request, robots.retryTime());
            }
            noteCrawlDelay(request, host, nodes);
            if (requests.isAllowed(UrlEscaper.escape(request.url()))) {
                return new DownloadStep.Proceed(request);
            }
            context().metrics().robotsRefused();
            LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("appid", request.meta().get("appid"))
                    .addKeyValue("crawlid", request.meta().get("crawlid")).log("Forbidden by robots.txt");
            return new DownloadStep.Drop("forbidden by robots.txt");
        });
    }

    /**
     * A request whose host's server answered its robots.txt with an error (5xx, 429), the file never read: RFC 9309
     * takes that as "disallow all" until the file can be read, so the request is not fetched but filed again as a
     * retry, and the domain paused until the file is asked again ({@code retry}). Once its retries are used up it is
     * fetched, as Scrapy's middleware would fetch it: no host is held off for ever, and no request is lost.
     */
    private DownloadStep untilReadable(DownloadRequest request, Duration retry) {
        Download download = Download.from(request, name());
        Optional<CrawlRequest> again = context().retry().retry(download.crawl());
        if (again.isEmpty()) {
            LOG.atWarn().addKeyValue("url", request.url()).addKeyValue("appid", request.meta().get("appid"))
                    .addKeyValue("crawlid", request.meta().get("crawlid"))
                    .log("robots.txt still answers with a server error after the request's retries; fetching the request");
            return new DownloadStep.Proceed(request);
        }
        LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("pause_seconds", retry.toMillis() / 1000.0)
                .addKeyValue("throttle_key", download.lease().throttle().throttleKey())
                .log("robots.txt answers with a server error; the request waits for it, the domain paused");
        pauseDomain(download, retry);
        context().metrics().retry();
        return new DownloadStep.Reschedule(download.withCrawl(again.get()), true);
    }

    /** The User-Agent {@code request} sends of its own (a crawl's {@code useragent}); null when the fetcher's default goes. */
    private static String userAgent(DownloadRequest request) {
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            if (header.getKey().equalsIgnoreCase("User-Agent") && !header.getValue().isEmpty()) {
                return header.getValue().getFirst();
            }
        }
        return null;
    }

    /**
     * Tells the domain's throttle the Crawl-delay the host's file gives the node's own robot: the throttle is the
     * domain's, shared by every crawl and node, which must all reckon the same limit whatever robot a request is.
     */
    private void noteCrawlDelay(DownloadRequest request, String host, BaseRobotRules rules) {
        long delayMillis = rules.getCrawlDelay();
        context().throttles().crawlDelay(request.domain(), host, delayMillis > 0 ? Duration.ofMillis(delayMillis) : Duration.ZERO);
    }
}
