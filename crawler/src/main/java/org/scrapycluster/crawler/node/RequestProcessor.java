package org.scrapycluster.crawler.node;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.FetchRequests;
import org.scrapycluster.crawler.middleware.RedirectPolicy;
import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.MetaPassthrough;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.LeasedRequest;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.spider.LinkRules;
import org.scrapycluster.crawler.spider.SpiderResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import crawlercommons.robots.BaseRobotRules;

/**
 * The life of one leased request, from hand-out to acknowledgement (docs/compatibility.md §4.11–4.14): read the
 * member; ask robots.txt; fetch; then, as Scrapy's middlewares would, turn a redirect into a new request,
 * pause the domain on a 429 or a 503 with Retry-After, send retry statuses and network failures back to
 * Redis as retries, drop a request to a refused internal address (logged once per domain); hand the rest to the spider, file its requests (with the page's crawl fields) and
 * pass its item through the pipelines. The lease is acknowledged only when the outcome is final — the
 * result published, or the request filed again, refused or given up; when Redis or Kafka could not take
 * the outcome, the lease is abandoned, and the request returns to its queue when it expires.
 */
public final class RequestProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestProcessor.class);

    private final CrawlerConfig config;
    private final RequestCodec codec;
    private final Fetcher fetcher;
    private final RobotsCache robots;
    private final Spider spider;
    private final LinkRules links;
    private final RequestFiler filer;
    private final Pipelines pipelines;
    private final LeaseKeeper leases;
    private final ThrottledQueue throttledQueue;
    private final DomainThrottles throttles;
    private final StatusCounters statusCounters;
    private final CrawlerMetrics metrics;
    private final Executor workers;
    private final Clock clock;
    private final Consumer<String> finished;
    private final AtomicInteger active = new AtomicInteger();
    private final OncePerDomain refusedDomains = new OncePerDomain();

    /** The final word on a request: acknowledge its lease (saying whether a page went out), or abandon it. */
    private record Outcome(boolean acknowledge, boolean published) {
        static final Outcome DONE = new Outcome(true, false);
        static final Outcome PUBLISHED = new Outcome(true, true);
    }

    /** The parts a request passes through. */
    public record Parts(RequestCodec codec, Fetcher fetcher, RobotsCache robots, Spider spider, LinkRules links, RequestFiler filer,
            Pipelines pipelines, LeaseKeeper leases, ThrottledQueue throttledQueue, DomainThrottles throttles,
            StatusCounters statusCounters, CrawlerMetrics metrics) {
    }

    /**
     * @param config   the node's settings
     * @param parts    what a request passes through
     * @param workers  where parsing and encoding run (off the network threads)
     * @param clock    the clock Retry-After dates are judged by
     * @param finished told the domain of every request that is done, to free its slot
     */
    public RequestProcessor(CrawlerConfig config, Parts parts, Executor workers, Clock clock,
            Consumer<String> finished) {
        this.config = config;
        this.codec = parts.codec();
        this.fetcher = parts.fetcher();
        this.robots = parts.robots();
        this.spider = parts.spider();
        this.links = parts.links();
        this.filer = parts.filer();
        this.pipelines = parts.pipelines();
        this.leases = parts.leases();
        this.throttledQueue = parts.throttledQueue();
        this.throttles = parts.throttles();
        this.statusCounters = parts.statusCounters();
        this.metrics = parts.metrics();
        this.workers = workers;
        this.clock = clock;
        this.finished = finished;
    }

    /** Requests being processed now. */
    public int active() {
        return active.get();
    }

    /** Takes a handed-out request through to its final outcome, asynchronously. */
    public void process(LeasedRequest lease) {
        active.incrementAndGet();
        leases.hold(lease.leaseId());
        CompletableFuture<Outcome> outcome;
        try {
            CrawlRequest request = codec.decode(lease.member());
            outcome = allowedByRobots(lease, request).thenCompose(allowed -> allowed
                    ? fetcher.fetch(FetchRequests.of(request)).thenComposeAsync(result -> handle(lease, request, result), workers)
                    : CompletableFuture.completedFuture(Outcome.DONE));
        } catch (MalformedQueueMemberException e) {
            LOG.atError().addKeyValue("member", lease.member()).addKeyValue("reason", e.getMessage())
                    .log("Dropping a queue member that is not a crawl request");
            metrics.error("malformed_member");
            outcome = CompletableFuture.completedFuture(Outcome.DONE);
        }
        outcome.whenComplete((done, failure) -> settle(lease, done, failure));
    }

    private CompletableFuture<Boolean> allowedByRobots(LeasedRequest lease, CrawlRequest request) {
        if (!config.robotsObey()) {
            return CompletableFuture.completedFuture(true);
        }
        return robots.rulesFor(request.url()).thenApply(rules -> {
            noteCrawlDelay(lease.domain(), request.url(), rules);
            if (rules.isAllowed(UrlEscaper.escape(request.url()))) {
                return true;
            }
            metrics.robotsRefused();
            LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("appid", request.appid())
                    .addKeyValue("crawlid", request.crawlid()).log("Forbidden by robots.txt");
            return false;
        });
    }

    private void noteCrawlDelay(String domain, String url, BaseRobotRules rules) {
        long delayMillis = rules.getCrawlDelay();
        String host = UrlParts.split(url).netloc().toLowerCase(Locale.ROOT);
        throttles.crawlDelay(domain, host, delayMillis > 0 ? Duration.ofMillis(delayMillis) : Duration.ZERO);
    }

    private CompletableFuture<Outcome> handle(LeasedRequest lease, CrawlRequest request, FetchResult result) {
        if (!result.ok()) {
            return failed(lease, request, result);
        }
        int status = result.status();
        RedirectPolicy.Decision redirect = config.redirect().decide(request, status, result.redirectLocation());
        if (redirect instanceof RedirectPolicy.Follow follow) {
            metrics.redirect();
            return file(List.of(follow.request()));
        }
        if (redirect instanceof RedirectPolicy.TooMany tooMany) {
            metrics.error("redirect_limit");
            LOG.atWarn().addKeyValue("url", request.url()).addKeyValue("redirects", tooMany.redirects())
                    .addKeyValue("crawlid", request.crawlid()).log("Discarding request: max redirections reached");
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        Optional<Duration> pause = config.backoff().pauseFor(status, result.headers().first("Retry-After"), clock.instant());
        pause.ifPresent(duration -> pauseDomain(lease, request, status, duration));
        if (pause.isPresent() || config.retry().retriesStatus(status)) {
            Optional<CrawlRequest> again = config.retry().retry(request);
            if (again.isPresent()) {
                metrics.retry();
                return file(List.of(again.get()));
            }
        }
        return parse(request, result);
    }

    private void pauseDomain(LeasedRequest lease, CrawlRequest request, int status, Duration pause) {
        LOG.atInfo().addKeyValue("url", request.url()).addKeyValue("status_code", status)
                .addKeyValue("pause_seconds", pause.toMillis() / 1000.0).addKeyValue("throttle_key", lease.throttle().throttleKey())
                .log("Server asked to back off; pausing the domain");
        throttledQueue.pauseAsync(lease.throttle(), pause).exceptionally(failure -> {
            LOG.atWarn().addKeyValue("throttle_key", lease.throttle().throttleKey()).log("Could not pause the domain: " + failure);
            return null;
        });
    }

    private CompletableFuture<Outcome> parse(CrawlRequest request, FetchResult result) {
        List<CrawlRequest> requests;
        CrawlResult item;
        try {
            String statusMsg = config.statusMsgFromResponse() ? result.reason() : "OK";
            SpiderResponse page = new SpiderResponse(request, result, statusMsg, links);
            SpiderOutput output = spider.parse(page);
            requests = page.requests(output);
            item = page.item(output);
        } catch (RuntimeException e) {
            metrics.error("spider");
            LOG.atError().addKeyValue("url", request.url()).addKeyValue("crawlid", request.crawlid()).setCause(e)
                    .log("The spider failed on a page; dropping it");
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        metrics.page(result.body().length, result.timings().total());
        metrics.response(result.status());
        statusCounters.response(result.status());
        List<CrawlRequest> children = requests.stream().map(child -> MetaPassthrough.inherit(request, child)).toList();
        CompletableFuture<?> filed = children.isEmpty() ? CompletableFuture.completedFuture(null) : filer.file(children);
        CompletableFuture<Void> published = pipelines.process(item);
        return CompletableFuture.allOf(filed, published).thenApply(both -> Outcome.PUBLISHED);
    }

    /** A refused internal address: said once per domain at WARN (then at DEBUG), not retried, nothing published. */
    private void refusedAddress(LeasedRequest lease, CrawlRequest request, FetchResult result) {
        boolean first = refusedDomains.first(lease.domain());
        (first ? LOG.atWarn() : LOG.atDebug()).addKeyValue("url", request.url()).addKeyValue("domain", lease.domain())
                .addKeyValue("appid", request.appid()).addKeyValue("crawlid", request.crawlid())
                .addKeyValue("error_reason", result.errorMessage())
                .log("Refused to fetch an internal address (DOWNLOAD_FORBID_PRIVATE_ADDRESSES; allow blocks with "
                        + "DOWNLOAD_ALLOWED_PRIVATE_NETWORKS); not retrying" + (first ? ", said once per domain" : ""));
    }

    private CompletableFuture<Outcome> failed(LeasedRequest lease, CrawlRequest request, FetchResult result) {
        FetchError error = result.error();
        metrics.error(error.name().toLowerCase(Locale.ROOT));
        if (error == FetchError.CANCELLED) {
            return CompletableFuture.completedFuture(new Outcome(false, false));
        }
        if (error == FetchError.FORBIDDEN_ADDRESS) {
            refusedAddress(lease, request, result);
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        if (!error.retryable()) {
            LOG.atWarn().addKeyValue("url", request.url()).addKeyValue("appid", request.appid())
                    .addKeyValue("crawlid", request.crawlid()).addKeyValue("error", error.name())
                    .addKeyValue("error_reason", result.errorMessage()).log("Download failed; not retrying");
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        statusCounters.failedDownload();
        LOG.atError().addKeyValue("error_request", request.url()).addKeyValue("error_reason", error + ": " + result.errorMessage())
                .addKeyValue("retry_count", request.number("retry_times", 0)).addKeyValue("status_code", StatusCounters.FAILED_DOWNLOAD)
                .addKeyValue("appid", request.appid()).addKeyValue("crawlid", request.crawlid()).addKeyValue("url", request.url())
                .log("Scraper Retry");
        Optional<CrawlRequest> again = config.retry().retry(request);
        if (again.isEmpty()) {
            metrics.error("gave_up");
            LOG.atError().addKeyValue("url", request.url()).addKeyValue("appid", request.appid())
                    .addKeyValue("crawlid", request.crawlid()).addKeyValue("retry_count", request.number("retry_times", 0))
                    .log("Gave up on a request after its retries");
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        metrics.retry();
        return file(List.of(again.get()));
    }

    private CompletableFuture<Outcome> file(List<CrawlRequest> requests) {
        return filer.file(requests).thenApply(filed -> Outcome.DONE);
    }

    private void settle(LeasedRequest lease, Outcome outcome, Throwable failure) {
        if (failure != null || !outcome.acknowledge()) {
            if (failure != null) {
                LOG.atWarn().addKeyValue("lease", lease.leaseId()).addKeyValue("reason", String.valueOf(failure.getMessage()))
                        .log("Could not finish a request; it returns to its queue when its lease expires");
            }
            leases.abandon(lease.leaseId());
            done(lease);
            return;
        }
        leases.acknowledge(lease.leaseId(), outcome.published()).whenComplete((held, ackFailure) -> {
            if (ackFailure != null) {
                LOG.atWarn().addKeyValue("lease", lease.leaseId()).log("Could not acknowledge a lease; it expires and the page may be fetched again");
            }
            done(lease);
        });
    }

    private void done(LeasedRequest lease) {
        active.decrementAndGet();
        finished.accept(lease.domain());
    }
}
