package org.scrapycluster.crawler.middleware;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import crawlercommons.robots.BaseRobotRules;

/**
 * {@code robots}: drops a request robots.txt forbids (when {@code ROBOTSTXT_OBEY} is on) to the robot it is — its own
 * User-Agent's, unless {@code ROBOTSTXT_USER_AGENT} names one for all ({@link org.scrapycluster.crawler.robots.RobotName})
 * — and tells the domain's throttle the host's {@code Crawl-delay} for the node's own robot, which the throttle waits
 * for while a domain's robots.txt is unread (docs/throttling.md). A request whose host's pages wait for its robots.txt
 * ({@link RobotsCache#deferredUntil}) is put back as it is, and its domain paused until the file is asked again, on
 * this node even when Redis refuses the pause. So is, without a pause, an allowed request that waited longer than
 * {@link #LONGEST_WAIT} for the file to be read, and a domain's first request on this node that was handed out within
 * the file's Crawl-delay of the domain's hand-out before it. One that waited less goes, its domain paused for its
 * spacing from then, or, without spacing, its hand-out counted in the window from then (put back when that fills the
 * window); and so does one that waited longer for a file that could not be fetched (a timeout): put back,
 * it would wait as long again at its next hand-out whenever that comes after the file is asked again, for ever. One that
 * waited for a file whose fetch could not connect to the host fails with that failure, untried (a second timeout spared).
 */
public final class RobotsMiddleware extends NodeMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(RobotsMiddleware.class);

    /**
     * The longest a request may wait for its host's robots.txt to be read and still go out. The throttle spaces
     * hand-outs: a request that goes out this long after its hand-out reaches the server next to those handed out after
     * it (a robots.txt that takes the whole {@code DOWNLOAD_TIMEOUT} put two requests 2 s apart under a spacing of 6 s),
     * so it is handed out again instead.
     */
    static final Duration LONGEST_WAIT = Duration.ofSeconds(1);

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
            host = RobotsCache.origin(UrlParts.split(request.url())); // as the file is kept: one server, one delay
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
        boolean known = forNode.isDone() && forRequest.isDone();
        // while the node has not read the domain's file, this is its one request of the domain, spaced without the delay
        boolean firstOfDomain = context().throttles().awaitsRobots(request.domain());
        // the clock is read only for a request that waits for the file: nearly every request finds it read
        long askedMillis = known ? 0 : context().clock().millis();
        return forNode.thenCombine(forRequest, (nodes, requests) -> {
            // the two look-ups may straddle a fetch of the file: either one waiting holds the request back
            Optional<Instant> deferred = RobotsCache.deferredUntil(nodes).or(() -> RobotsCache.deferredUntil(requests));
            if (deferred.isPresent()) {
                return untilRead(request, deferred.get());
            }
            noteCrawlDelay(request, host, nodes);
            if (requests.isAllowed(UrlEscaper.escape(request.url()))) {
                Optional<FetchResult> unconnected = known ? Optional.empty() : RobotsCache.unconnected(nodes);
                if (unconnected.isPresent()) {
                    return CompletableFuture.completedFuture(failedWithItsHost(request, unconnected.get()));
                }
                Duration waited = known ? Duration.ZERO : Duration.ofMillis(context().clock().millis() - askedMillis);
                // a file that could not be fetched gives no delay to wait for, and would not be read the next time either
                if (waited.compareTo(LONGEST_WAIT) > 0 && !RobotsCache.unavailable(nodes)) {
                    return CompletableFuture.completedFuture(handOutAgain(request, waited));
                }
                // the delay is read for a domain's first request on this node only, not on every page
                Duration delay = firstOfDomain ? context().throttles().crawlDelay(request.domain()) : Duration.ZERO;
                CompletableFuture<DownloadStep> step = !delay.isZero() ? spacedByTheDelay(request, delay)
                        : CompletableFuture.completedFuture(new DownloadStep.Proceed(request));
                return waited.isZero() ? step : step.thenCompose(decided -> decided instanceof DownloadStep.Proceed
                        ? throttledFromItsFetch(request, decided)
                        : CompletableFuture.completedFuture(decided));
            }
            context().metrics().robotsRefused();
            LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("appid", request.meta().get("appid"))
                    .addKeyValue("crawlid", request.meta().get("crawlid")).log("Forbidden by robots.txt");
            return CompletableFuture.<DownloadStep>completedFuture(new DownloadStep.Drop("forbidden by robots.txt"));
        }).thenCompose(step -> step);
    }

    /**
     * A request whose host's pages wait for its robots.txt (RFC 9309: a server error disallows all until the file is
     * read): put back as it is — its retries and priority untouched, for it was not tried — once its domain is paused
     * until {@code askAgain}, when the file is asked again. The pause is a deadline, the same for every request of the
     * host until then, and a pause only lengthens: however many requests come, the domain is paused once. The node
     * holds the domain itself until then too, so that a pause Redis refuses does not hand the request out again at once,
     * to be put back again, over and over until the deadline.
     */
    private CompletableFuture<DownloadStep> untilRead(DownloadRequest request, Instant askAgain) {
        Download download = Download.from(request, name());
        Duration pause = Duration.between(context().clock().instant(), askAgain);
        LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("pause_seconds", pause.toMillis() / 1000.0)
                .addKeyValue("throttle_key", download.lease().throttle().throttleKey())
                .log("The request waits for its host's robots.txt; put back, the domain paused");
        // put back after the pause is set, lest it be handed out again before
        return pauseDomain(download, pause).thenApply(paused -> new DownloadStep.PutBack("its host's robots.txt cannot be read yet"));
    }

    /**
     * An allowed request that waited for its host's robots.txt, whose fetch could not connect to the host: it ends with
     * that failure, which its own fetch would meet a moment later, instead of meeting it again (a host that does not
     * answer would hold the node's slot for a second {@code DOWNLOAD_TIMEOUT}). The middlewares after the fetch take it
     * for the request's failed download: retried and counted as one, its domain slow after a timeout
     * (docs/throttling.md, "Slow domains"). A request that finds the failure already kept is fetched: the host may be back.
     */
    private DownloadStep failedWithItsHost(DownloadRequest request, FetchResult unconnected) {
        LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("error", unconnected.error())
                .log("Its host could not be connected to for its robots.txt just now; the request fails with that, untried");
        return new DownloadStep.Proceed(Download.from(request, name()).failedWith(unconnected.asFailureOf(request.url())));
    }

    /**
     * An allowed request that waited {@code waited} for its host's robots.txt, longer than {@link #LONGEST_WAIT}: put back
     * as it is, untried, to be handed out again at the spacing the domain's throttle keeps, now with the file's
     * Crawl-delay. The slot its first hand-out spent stays spent: the server gets fewer requests, never more.
     */
    private DownloadStep handOutAgain(DownloadRequest request, Duration waited) {
        LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("waited_seconds", waited.toMillis() / 1000.0)
                .log("The request waited long for its host's robots.txt; put back, to be handed out again under its domain's throttle");
        return new DownloadStep.PutBack("it waited " + waited.toMillis() + " ms for its host's robots.txt");
    }

    /**
     * The first request of its domain on this node, whose file gives a Crawl-delay: its hand-out was spaced by what the
     * node knew before, nothing, while other nodes may have read the file and handed out one of the domain's requests a
     * moment before (three nodes under a fast throttle sent their first requests together, the delay spacing only the
     * rest). Handed out less than the delay after the domain's hand-out before it, it is put back as it is, untried, to
     * be handed out again at the delay. When Redis cannot say, it goes: it was handed out under the throttle.
     */
    private CompletableFuture<DownloadStep> spacedByTheDelay(DownloadRequest request, Duration delay) {
        Download download = Download.from(request, name());
        Instant handedOut = download.lease().handedOut();
        // the domain's hand-outs kept for two delays, as a spec with the delay keeps them: this one was made under a spec
        // without it, whose short window would otherwise let the next node's first request find none before its own
        ClusterThrottle throttle = context().throttle();
        return throttle.handOutBefore(download.lease().throttle(), handedOut, delay.multipliedBy(2)).handle((before, failure) -> {
            if (failure != null || before.isEmpty() || Duration.between(before.get(), handedOut).compareTo(delay) >= 0) {
                return new DownloadStep.Proceed(request);
            }
            LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("crawl_delay_seconds", delay.toMillis() / 1000.0)
                    .addKeyValue("after_seconds", Duration.between(before.get(), handedOut).toMillis() / 1000.0)
                    .log("The domain's first request on this node was handed out within its Crawl-delay of the one before; "
                            + "put back, to be handed out again at the delay");
            return new DownloadStep.PutBack("handed out within its host's Crawl-delay of the request before");
        });
    }

    /**
     * A request that waited for its host's file goes that much after its hand-out, from which the throttle spaces the
     * domain's next: the site would get the next one sooner by the wait (up to {@link #LONGEST_WAIT}; a Crawl-delay of
     * 1 s gave two requests 0.8 s apart). So the domain is paused, cluster-wide, for its spacing from now, when it has
     * one ({@link ThrottleSpec#leastGap}: moderated, a Crawl-delay, one hand-out a window), and the next goes a spacing
     * after this one's fetch. A throttle without spacing counts the hand-out in its window from now instead
     * ({@link ClusterThrottle#countFromFetch}): its window lets a burst go at its start, and the first burst's requests,
     * waiting for the file, went out next to the next window's (three nodes at 3 a 2 s window: six within 1.1 s). Should
     * the window, counted so, be over its limit, the request is put back, untried; when Redis cannot say, it goes.
     */
    private CompletableFuture<DownloadStep> throttledFromItsFetch(DownloadRequest request, DownloadStep decided) {
        Download download = Download.from(request, name());
        Optional<Duration> spacing = context().throttles().specFor(request.domain()).leastGap();
        if (spacing.isPresent()) {
            return pauseDomain(download, spacing.get()).thenApply(paused -> decided);
        }
        return context().throttle().countFromFetch(download.lease().throttle(), download.lease().handedOut()).handle((goes, failure) -> {
            if (failure != null || goes) {
                return decided;
            }
            LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("throttle_key", download.lease().throttle().throttleKey())
                    .log("The request waited for its host's robots.txt while its domain's window filled; put back");
            return new DownloadStep.PutBack("its domain's throttle window filled while it waited for its host's robots.txt");
        });
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
