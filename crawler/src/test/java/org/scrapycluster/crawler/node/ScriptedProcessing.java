package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.api.ResultItem;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.FetchTimings;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.ClusterThrottle;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.middleware.MiddlewareContext;
import org.scrapycluster.crawler.pipeline.PipelineContext;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.robots.RobotName;
import org.scrapycluster.crawler.robots.LocalServerErrorRows;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.DupefilterMemory;
import org.scrapycluster.crawler.scheduler.LastFetch;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.LeasedRequest;
import org.scrapycluster.crawler.scheduler.PrivateRedis;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.scrapycluster.crawler.spider.LinkRules;
import org.scrapycluster.crawler.spider.LinkSpider;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What the tests of {@link RequestProcessor} share: one leased request at a time through a processor built as the node
 * builds it, with a scripted {@link Fetcher}, a fixed clock, every step on the calling thread unless a test gives it
 * workers, and a private redis-server for the queues and leases. Each test instance has a spider and a crawl of its own.
 */
abstract class ScriptedProcessing {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    static final FetchTimings NO_TIME = new FetchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, false);

    final RedisConnection redis = PrivateRedis.connection();
    /** Where the processors count the responses of status 200 that reach the spider (lifetime counts only). */
    final StatsRecorder stats = new StatsRecorder(redis, "n1", CLOCK, Duration.ofSeconds(1));
    final String spider = "processor" + System.nanoTime();
    final String crawlid = "c" + System.nanoTime();
    final Map<String, FetchResult> answers = new HashMap<>();
    final List<String> fetched = new CopyOnWriteArrayList<>();
    final List<String> finished = new CopyOnWriteArrayList<>();
    /** The domains of the requests finished whose last fetch was slow, as the scheduler is told. */
    final List<String> finishedSlowly = new CopyOnWriteArrayList<>();
    /** A permit for each request finished, so that a test waits for exactly that (Redis answers on Lettuce's thread). */
    final Semaphore finishing = new Semaphore(0);
    /** What the fetcher throws for a URL instead of answering: a failure of the node's own code. */
    final Map<String, Error> fetcherErrors = new HashMap<>();
    final List<Throwable> fatal = new CopyOnWriteArrayList<>();
    final RequestCodec codec = new RequestCodec();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    CrawlRequest onlyQueued() throws MalformedQueueMemberException {
        List<CrawlRequest> queued = queued();
        assertEquals(1, queued.size(), queued.toString());
        return queued.get(0);
    }

    Map<String, Object> meta(int curdepth, int maxdepth) {
        return Map.of("appid", "app", "crawlid", "unused", "spiderid", spider, "priority", 0, "curdepth", curdepth,
                "maxdepth", maxdepth, "expires", 0, "retry_times", 0);
    }

    void answer(String url, int status, HeaderMap headers, String body, FetchError error) {
        answers.put(url, new FetchResult(url, status, status == 0 ? "" : "Status", headers, body.getBytes(StandardCharsets.UTF_8),
                error == null ? new DetectedEncoding("utf-8", StandardCharsets.UTF_8) : null, HeaderMap.empty(),
                null, error, error == null ? null : "scripted failure", NO_TIME));
    }

    /** A 200 of {@code body} after {@code queued} in the fetcher's queue and {@code total} in all. */
    void answerAfter(String url, String body, Duration queued, Duration total) {
        answers.put(url, new FetchResult(url, 200, "OK", HeaderMap.empty(), body.getBytes(StandardCharsets.UTF_8),
                new DetectedEncoding("utf-8", StandardCharsets.UTF_8), HeaderMap.empty(), null, null, null,
                new FetchTimings(queued, Duration.ZERO, Duration.ZERO, total, false)));
    }

    /** A failure with {@code error} after {@code queued} in the fetcher's queue and {@code total} in all. */
    void failAfter(String url, FetchError error, Duration queued, Duration total) {
        answers.put(url, new FetchResult(url, 0, "", HeaderMap.empty(), new byte[0], null, HeaderMap.empty(), null, error,
                "scripted failure", new FetchTimings(queued, Duration.ZERO, Duration.ZERO, total, false)));
    }

    RequestProcessor processor(Map<String, String> set) {
        return processor(set, new LinkSpider());
    }

    RequestProcessor processor(Map<String, String> set, Spider parser) {
        return processor(set, parser, Runnable::run);
    }

    RequestProcessor processor(Map<String, String> set, Spider parser, Executor workers) {
        Map<String, String> all = new HashMap<>(Map.of("ITEM_PIPELINES", "{logging: null, kafka: null, captured: 100}",
                "ROBOTSTXT_OBEY", "false"));
        all.putAll(set);
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), all));
        CrawlerConfig config = CrawlerConfig.from(settings);
        CrawlerMetrics metrics = new CrawlerMetrics(registry, spider, "n1");
        Fetcher fetcher = request -> {
            fetched.add(request.url());
            Error error = fetcherErrors.get(request.url());
            if (error != null) {
                throw error;
            }
            FetchResult answer = answers.get(request.url());
            return CompletableFuture.completedFuture(answer != null ? answer : new FetchResult(request.url(), 404, "Not Found",
                    HeaderMap.empty(), new byte[0], null, HeaderMap.empty(), null, null, null, NO_TIME));
        };
        StatusCounters statusCounters = new StatusCounters(stats, "host", spider, new CountedStatusCodes(true, List.of(200)), List.of());
        DomainThrottles throttles = new DomainThrottles(spider, new ThrottleKeyStyle(false, false), 60, 10, false, "ip", 1_000);
        RobotsCache robots = new RobotsCache(fetcher, RobotName.of(null, "scrapy"), Duration.ofHours(1), Duration.ofMinutes(1), 100,
                64L << 20, new LocalServerErrorRows(CLOCK, Duration.ofMinutes(1)), CLOCK, workers);
        DownloadChain chain = DownloadChain.open(DownloadChain.middlewares(settings), new MiddlewareContext(config.robotsObey(), robots,
                throttles, ClusterThrottle.of(new ThrottledQueue(redis)), new SchedulerInbox(), config.retry(), config.redirect(),
                config.backoff(), statusCounters, metrics, CLOCK), fetcher);
        RequestFiler filer = new RequestFiler(new Enqueuer(redis, false), new DupefilterMemory(0, config.filing().dupefilterTtl(), CLOCK), codec, spider, config.filing(),
                domain -> false, metrics, workers);
        Pipelines pipelines = Pipelines.open(new PipelineContext(settings, spider, metrics, new HealthRegistry(), CLOCK));
        LeaseKeeper leases = new LeaseKeeper(new Leases(redis), spider, Duration.ofMinutes(1), metrics, CLOCK);
        LinkRules links = new LinkRules(List.of(), config.linkRegexPageTime(), metrics::linksCut);
        return new RequestProcessor(config, new RequestProcessor.Parts(codec, chain, parser, links, filer,
                pipelines, leases, statusCounters, metrics), workers, (domain, lastFetch) -> {
                    finished.add(domain);
                    if (lastFetch == LastFetch.SLOW) {
                        finishedSlowly.add(domain);
                    }
                    finishing.release();
                },
                new ResultDelivery(new SchedulerInbox(), metrics, CLOCK), fatal::add);
    }

    /** Leases {@code request} in Redis as a hand-out would, processes it, and returns its lease id. */
    String process(RequestProcessor processor, CrawlRequest request) {
        return process(processor, request, true);
    }

    /**
     * Processes {@code request} as {@link #process(RequestProcessor, CrawlRequest)} does; without {@code leaseInRedis}, as
     * a node does that stalled longer than the lease: the reaper has put the request back in its queue meanwhile.
     */
    String process(RequestProcessor processor, CrawlRequest request, boolean leaseInRedis) {
        Map<String, Object> meta = new HashMap<>(request.meta());
        meta.put("crawlid", crawlid);
        String member = codec.encode(request.withMeta(meta));
        int finishedBefore = finished.size();
        String lease = "example.com|-1|lease-" + System.nanoTime();
        if (leaseInRedis) {
            redis.sync().hset(Keyspace.leased(spider), lease, member);
            redis.sync().zadd(Keyspace.leases(spider), CLOCK.millis() + 60_000, lease);
        }
        processor.process(new LeasedRequest(new QueueKey(spider, "example.com"), member, -1, lease,
                ThrottleSpec.of(spider + ":example.com", 60, 10, 1.0, false), CLOCK.instant()));
        try {
            assertTrue(finishing.tryAcquire(30, TimeUnit.SECONDS), "the request was never finished");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertEquals(0, processor.active());
        assertEquals(finishedBefore + 1, finished.size(), "the domain is freed once: " + finished);
        return lease;
    }

    /** Whether {@code lease} is still held: abandoned (its request returns when it expires) rather than acknowledged. */
    boolean held(String lease) {
        return redis.sync().hexists(Keyspace.leased(spider), lease);
    }

    double publishingStalled() {
        return registry.get("crawler.publishing.stalled").gauge().value();
    }

    List<ResultItem> items() {
        return CapturingPipeline.ITEMS.stream().filter(item -> crawlid.equals(item.crawlid())).toList();
    }

    ResultItem onlyItem() {
        List<ResultItem> items = items();
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }

    List<CrawlRequest> queued() throws MalformedQueueMemberException {
        List<CrawlRequest> requests = new ArrayList<>();
        for (String member : redis.sync().zrange(new QueueKey(spider, "example.com").key(), 0, -1)) {
            requests.add(codec.decode(member));
        }
        return requests;
    }
}
