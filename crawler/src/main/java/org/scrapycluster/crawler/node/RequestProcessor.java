package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.scrapycluster.api.DownloadStep;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.common.concurrent.Completions;
import org.scrapycluster.common.extension.ExtensionCallFailure;
import org.scrapycluster.common.extension.ExtensionFailureLog;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.Download;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.MetaPassthrough;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.scheduler.LastFetch;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.LeasedRequest;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.scrapycluster.crawler.spider.LinkRules;
import org.scrapycluster.crawler.spider.SpiderResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The life of one leased request, from hand-out to acknowledgement (docs/compatibility.md §4.11–4.14): read the
 * member; take it through the downloader middlewares of {@code DOWNLOADER_MIDDLEWARES} and the fetch
 * ({@link DownloadChain}: robots.txt, cookies, retries, Retry-After, redirects); file what they reschedule; drop a
 * request to a refused internal address (logged once per domain); hand the rest to the spider, file its requests
 * (with the page's crawl fields; those with an overlong URL dropped, {@link UrlLengthLimit}) and pass its item
 * through the pipelines. The lease is acknowledged only when the outcome is final — the result published, or the
 * request filed again, refused or given up, or its result dropped for good by a pipeline (which is not counted as a
 * published page), or a middleware or pipeline failed on it with a bug (it threw or answered
 * nothing: docs/extending.md, "When an extension fails"); when Redis or Kafka could not take
 * the outcome (Redis's writes are tried again while the lease is held, for up to half a lease:
 * {@link LeaseKeeper#whileHeld}), or an extension said "not now" by failing its future, the lease is abandoned, and the
 * request returns to its queue when it expires; a fetch cancelled because
 * the node stops hands its lease back, and so does a request a middleware put back untried: the request returns at
 * once, as it came out. An error of the node's own code that it cannot
 * go on from (out of memory, a class or method its jar lacks) abandons the lease too, and ends the process
 * ({@link FatalExit}). Whether results get
 * through the pipelines is told to {@link ResultDelivery}, which slows the node to one request while they do not.
 */
public final class RequestProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestProcessor.class);

    private final CrawlerConfig config;
    private final RequestCodec codec;
    private final DownloadChain chain;
    private final Spider spider;
    private final LinkRules links;
    private final RequestFiler filer;
    private final Pipelines pipelines;
    private final LeaseKeeper leases;
    private final StatusCounters statusCounters;
    private final CrawlerMetrics metrics;
    private final Executor workers;
    private final FinishedRequests finished;
    private final ResultDelivery delivery;
    private final Consumer<Throwable> fatal;
    private final UrlLengthLimit urlLength;
    /** How long a fetch held its slot, failed or answered, for it to count as slow: half of {@code DOWNLOAD_TIMEOUT}. */
    private final Duration slowFetch;
    private final AtomicInteger active = new AtomicInteger();
    private final boolean publishBinary;
    private final SaidOnce refusedDomains = new SaidOnce("domain");
    private final SaidOnce binaryDomains = new SaidOnce("domain");
    private final ExtensionFailureLog extensionFailures = new ExtensionFailureLog(LOG, "crawler_errors_total");

    /**
     * The final word on a request: acknowledge its lease (saying whether a page went out), or hand it back; and whether
     * its last fetch was slow, for the scheduler.
     */
    private record Outcome(boolean acknowledge, boolean published, LastFetch lastFetch) {
        static final Outcome DONE = new Outcome(true, false, LastFetch.NONE);
        static final Outcome PUBLISHED = new Outcome(true, true, LastFetch.NONE);
        /**
         * Not finished here: its fetch was cancelled (the node is stopping), or a middleware put it back untried; its
         * lease is handed back, and the request returns to its queue as it came out.
         */
        static final Outcome HANDED_BACK = new Outcome(false, false, LastFetch.NONE);

        Outcome after(LastFetch fetch) {
            return new Outcome(acknowledge, published, fetch);
        }
    }

    /** Told of every request that is done, to free its domain's slot on the node ({@link SchedulerInbox#finished}). */
    @FunctionalInterface
    public interface FinishedRequests {

        /**
         * A request of {@code domain} is done (acknowledged or abandoned); {@code lastFetch} says how its last fetch
         * ended.
         */
        void finished(String domain, LastFetch lastFetch);
    }

    /** The parts a request passes through. */
    public record Parts(RequestCodec codec, DownloadChain chain, Spider spider, LinkRules links, RequestFiler filer,
            Pipelines pipelines, LeaseKeeper leases, StatusCounters statusCounters, CrawlerMetrics metrics) {
    }

    /**
     * @param config   the node's settings
     * @param parts    what a request passes through
     * @param workers  where parsing and encoding run (off the network threads)
     * @param finished told the domain of every request that is done, to free its slot, and how its last fetch ended
     * @param delivery told whether each page's result got through the pipelines
     * @param fatal    told of an error of the node's own code it cannot go on from ({@link FatalExit#endsTheService}: out
     *                 of memory, a class or method its jar lacks), after the request's lease is abandoned; the node ends
     *                 the process on it
     */
    RequestProcessor(CrawlerConfig config, Parts parts, Executor workers, FinishedRequests finished, ResultDelivery delivery,
            Consumer<Throwable> fatal) {
        this.config = config;
        this.codec = parts.codec();
        this.chain = parts.chain();
        this.spider = parts.spider();
        this.links = parts.links();
        this.filer = parts.filer();
        this.pipelines = parts.pipelines();
        this.leases = parts.leases();
        this.statusCounters = parts.statusCounters();
        this.metrics = parts.metrics();
        this.workers = workers;
        this.finished = finished;
        this.delivery = delivery;
        this.fatal = fatal;
        this.urlLength = new UrlLengthLimit(config.urlLengthLimit(), parts.metrics());
        this.slowFetch = config.downloadTimeout().dividedBy(2);
        this.publishBinary = config.publishBinaryResponses();
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
        Optional<CrawlFields> crawl;
        try {
            CrawlRequest request = codec.decode(lease.member());
            crawl = CrawlFields.ofHandedOut(request.meta(), lease.score());
            outcome = chain.run(Download.of(lease, request), workers).thenCompose(this::handle);
        } catch (MalformedQueueMemberException e) {
            LOG.atError().addKeyValue("member", lease.member()).addKeyValue("reason", e.getMessage())
                    .log("Dropping a queue member that is not a crawl request");
            metrics.error("malformed_member");
            crawl = CrawlFields.ofMember(lease.member(), lease.score());
            outcome = CompletableFuture.completedFuture(Outcome.DONE);
        } catch (RuntimeException | Error e) {
            metrics.error("processing");
            crawl = Optional.empty();
            outcome = CompletableFuture.failedFuture(e);
        }
        Optional<CrawlFields> counted = crawl;
        outcome.whenComplete((done, failure) -> settle(lease, counted, done, failure));
    }

    private CompletableFuture<Outcome> handle(DownloadChain.Passage passage) {
        FetchResult result = passage.result();
        if (result != null) {
            countAttempt(result);
        }
        LastFetch fetch = lastFetch(result);
        return outcome(passage, result).thenApply(done -> done.after(fetch));
    }

    /** How the fetch whose result is {@code result} ended ({@code null}: the request was not fetched). */
    private LastFetch lastFetch(FetchResult result) {
        if (result == null || result.error() == FetchError.CANCELLED) {
            return LastFetch.NONE;
        }
        return slow(result) ? LastFetch.SLOW : LastFetch.IN_TIME;
    }

    /**
     * Whether the fetch whose result is {@code result} held its slot long: it ran out of {@code DOWNLOAD_TIMEOUT}, or
     * ended, failed or answered, only after half of it outside the fetcher's own queue (a DNS lookup whose servers do not
     * answer, a reset after a long trickle, a server that takes 8 s to answer).
     */
    private boolean slow(FetchResult result) {
        if (!result.ok() && result.error().timedOut()) {
            return true;
        }
        FetchTimings timings = result.timings();
        return timings != null && timings.total().minus(timings.queued()).compareTo(slowFetch) >= 0;
    }

    private CompletableFuture<Outcome> outcome(DownloadChain.Passage passage, FetchResult result) {
        CrawlRequest request = passage.download().crawl();
        return switch (passage.step()) {
            case DownloadStep.Drop drop -> {
                LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("reason", drop.reason())
                        .log("Dropped by a downloader middleware");
                yield CompletableFuture.completedFuture(Outcome.DONE);
            }
            case DownloadStep.PutBack putBack -> {
                LOG.atDebug().addKeyValue("url", request.url()).addKeyValue("reason", putBack.reason())
                        .log("Put back untried by a downloader middleware; it returns to its queue as it came out");
                yield CompletableFuture.completedFuture(Outcome.HANDED_BACK);
            }
            case DownloadStep.Reschedule reschedule -> {
                CrawlRequest again = config.referrers().rescheduled(request);
                List<CrawlRequest> rescheduled = List.of(reschedule.dontFilter() ? again.withDontFilter(true) : again);
                // not when the lease was lost while the node stalled: the request is back in its queue already
                yield Completions.thenOn(leases.stillHeld(passage.download().lease().leaseId()), held -> held
                        ? file(passage.download(), rescheduled, UnaryOperator.identity()).thenApply(filed -> Outcome.DONE)
                        : CompletableFuture.completedFuture(Outcome.DONE), workers);
            }
            case DownloadStep.Proceed proceed -> result.ok() ? parse(passage.download(), result) : failed(passage.download(), result);
        };
    }

    /**
     * Counts one fetch attempt once, whatever the middlewares make of it: an answer by its status (a retried,
     * redirected or paused one too), a failure by its kind; the ratio of failed attempts the {@code HighErrorRatio}
     * alert reads is made of these (docs/operations.md, "Dashboards and alerts").
     */
    private void countAttempt(FetchResult result) {
        if (result.timings() != null) {
            metrics.fetchTime(result.timings().total());
        }
        if (result.ok()) {
            metrics.response(result.status());
        } else {
            metrics.error(result.error().name().toLowerCase(Locale.ROOT));
        }
    }

    private CompletableFuture<Outcome> parse(Download download, FetchResult result) {
        CrawlRequest request = download.crawl();
        List<CrawlRequest> requests;
        CrawlResult item;
        try {
            String statusMsg = config.statusMsgFromResponse() ? result.reason() : "OK";
            SpiderResponse page = new SpiderResponse(request, result, statusMsg, links);
            if (!page.isText() && !publishBinary) {
                return binaryResponse(download.lease(), request, result);
            }
            statusCounters.response(result.status()); // as the original counts it: before the spider, which may fail on it
            metrics.page(result.body().length); // handed to the spider, whatever it makes of it (docs/operations.md)
            SpiderOutput output = OwnClassLoader.call(spider, () -> spider.parse(page));
            if (output == null) {
                throw new SpiderFailure(spider.name(), request.url());
            }
            requests = page.requests(output);
            item = page.item(output);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            metrics.error("spider");
            extensionFailures.failed("spider " + spider.name(), e, "the page is dropped", Map.of("url", request.url()));
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        List<CrawlRequest> children = urlLength.within(requests, request, download.lease().domain()).stream()
                .map(child -> MetaPassthrough.inherit(request, child)).toList();
        CompletableFuture<?> filed = children.isEmpty() ? CompletableFuture.completedFuture(null)
                : file(download, children, config.referrers().page(request.url(),
                        Optional.ofNullable(result.headers().last("Referrer-Policy"))));
        CompletableFuture<Boolean> published = pipelines.process(item, workers).whenComplete(this::delivered);
        // a page a pipeline dropped for good (too large for Kafka, say) is done, but not counted as published; when the
        // links could not be filed, that failure is the one settled, so that the request returns for them
        return filed.thenCombine(published, (links, went) -> went ? Outcome.PUBLISHED : Outcome.DONE);
    }

    /**
     * Files the requests {@code download} led to, {@code finish} applied to those written (as
     * {@link RequestFiler#file(List, UnaryOperator)} does), tried again while its lease is held.
     */
    private CompletableFuture<List<RequestFiler.Filed>> file(Download download, List<CrawlRequest> requests,
            UnaryOperator<CrawlRequest> finish) {
        return leases.whileHeld(download.lease().leaseId(), "filing", () -> filer.file(requests, finish));
    }

    /** Tells {@link ResultDelivery} whether a result got through; a pipeline's bug says nothing of whether results can. */
    private void delivered(Boolean published, Throwable failure) {
        if (failure == null) {
            if (published) { // a page dropped for good before Kafka (too large, unwritable) says nothing of whether Kafka takes pages
                delivery.published();
            }
            return;
        }
        Throwable cause = Completions.cause(failure);
        // neither a pipeline's bug nor the node failing (out of memory: the request's settling ends the node) says
        // anything of whether results can get through
        if (!(cause instanceof ExtensionCallFailure call && call.bug()) && !FatalExit.endsTheService(cause)) {
            delivery.failed(cause);
        }
    }

    /**
     * A response that is not text, with {@code PUBLISH_BINARY_RESPONSES} off: neither parsed nor published, as the
     * original's spiders failed on it; its status counted as any page's, itself counted, and said once per domain at INFO
     * (then at DEBUG).
     */
    private CompletableFuture<Outcome> binaryResponse(LeasedRequest lease, CrawlRequest request, FetchResult result) {
        metrics.binaryResponse();
        statusCounters.response(result.status());
        binaryDomains.say(LOG, Level.INFO, lease.domain(), event -> about(event, lease, request)
                        .addKeyValue("content_type", String.valueOf(result.headers().last("Content-Type"))),
                "Not publishing a response that is not text (PUBLISH_BINARY_RESPONSES publishes it base64-encoded)");
        return CompletableFuture.completedFuture(Outcome.DONE);
    }

    /** A refused internal address: said once per domain at WARN (then at DEBUG), not retried, nothing published. */
    private void refusedAddress(LeasedRequest lease, CrawlRequest request, FetchResult result) {
        refusedDomains.say(LOG, Level.WARN, lease.domain(), event -> about(event, lease, request)
                        .addKeyValue("error_reason", result.errorMessage()),
                "Refused to fetch an internal address (DOWNLOAD_FORBID_PRIVATE_ADDRESSES; allow blocks with "
                        + "DOWNLOAD_ALLOWED_PRIVATE_NETWORKS); not retrying");
    }

    /** {@code event} with the key-values that place a request of {@code lease}. */
    private static LoggingEventBuilder about(LoggingEventBuilder event, LeasedRequest lease, CrawlRequest request) {
        return event.addKeyValue("url", request.url()).addKeyValue("domain", lease.domain())
                .addKeyValue("appid", request.appid()).addKeyValue("crawlid", request.crawlid());
    }

    private CompletableFuture<Outcome> failed(Download download, FetchResult result) {
        CrawlRequest request = download.crawl();
        FetchError error = result.error();
        if (error == FetchError.CANCELLED) {
            return CompletableFuture.completedFuture(Outcome.HANDED_BACK);
        }
        if (error == FetchError.FORBIDDEN_ADDRESS) {
            refusedAddress(download.lease(), request, result);
            return CompletableFuture.completedFuture(Outcome.DONE);
        }
        LOG.atWarn().addKeyValue("url", request.url()).addKeyValue("appid", request.appid())
                .addKeyValue("crawlid", request.crawlid()).addKeyValue("error", error.name())
                .addKeyValue("error_reason", result.errorMessage()).log("Download failed; not retrying");
        return CompletableFuture.completedFuture(Outcome.DONE);
    }

    private void settle(LeasedRequest lease, Optional<CrawlFields> crawl, Outcome outcome, Throwable failure) {
        if (failure != null) {
            Throwable cause = Completions.cause(failure);
            if (cause instanceof ExtensionCallFailure call && call.bug()) {
                extensionFailed(call, "the request is given up");
                acknowledge(lease, crawl, Outcome.DONE);
                return;
            }
            boolean endsTheNode = FatalExit.endsTheService(cause);
            if (!endsTheNode) {
                unfinished(lease, cause);
            }
            leases.abandon(lease.leaseId());
            done(lease, LastFetch.NONE);
            if (endsTheNode) {
                fatal.accept(cause);
            }
            return;
        }
        if (!outcome.acknowledge()) {
            leases.handBack(lease.leaseId());
            done(lease, outcome.lastFetch());
            return;
        }
        acknowledge(lease, crawl, outcome);
    }

    private void acknowledge(LeasedRequest lease, Optional<CrawlFields> crawl, Outcome outcome) {
        leases.acknowledge(lease.leaseId(), crawl, outcome.published()).whenComplete((held, ackFailure) -> {
            if (ackFailure != null) {
                LOG.atWarn().addKeyValue("lease", lease.leaseId()).log("Gave up acknowledging a lease; it expires and the page may be fetched again");
            }
            done(lease, outcome.lastFetch());
        });
    }

    /**
     * Tells why {@code lease} could not be finished: a downloader middleware's "not now" is counted, and its stack trace
     * said once per kind.
     */
    private void unfinished(LeasedRequest lease, Throwable failure) {
        String consequence = "it returns to its queue when its lease expires";
        if (failure instanceof ExtensionCallFailure call) {
            extensionFailed(call, consequence);
            return;
        }
        LOG.atWarn().addKeyValue("lease", lease.leaseId()).addKeyValue("reason", String.valueOf(failure.getMessage()))
                .log("Could not finish a request; " + consequence);
    }

    /** Counts the failure of a downloader middleware or an item pipeline, and says it once per kind. */
    private void extensionFailed(ExtensionCallFailure call, String consequence) {
        metrics.error(call.kind());
        extensionFailures.failed(call.extension(), call.getCause() != null ? call.getCause() : call, consequence, Map.of("url", call.url()));
    }

    private void done(LeasedRequest lease, LastFetch lastFetch) {
        active.decrementAndGet();
        finished.finished(lease.domain(), lastFetch);
    }

    /** A spider whose {@code parse} returned no output (null): its bug, for which the page is dropped. */
    static final class SpiderFailure extends ExtensionCallFailure {

        private static final long serialVersionUID = 1L;

        SpiderFailure(String spider, String url) {
            super("spider", "spider " + spider, url, "the spider " + spider + " returned no output from parse", null, true);
        }
    }
}
