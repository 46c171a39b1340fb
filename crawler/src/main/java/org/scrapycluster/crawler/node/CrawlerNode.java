package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.api.LinkFilter;
import org.scrapycluster.api.Spider;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.LeaseReaper;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.Heartbeat;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.common.stats.StatsWindow;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.middleware.MiddlewareContext;
import org.scrapycluster.crawler.pipeline.PipelineContext;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.Discovery;
import org.scrapycluster.crawler.scheduler.DomainConfigFollower;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.DupefilterMemory;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.PublicIpLookup;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.scheduler.Scheduler;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.scrapycluster.crawler.spider.LinkRules;
import org.scrapycluster.crawler.spider.Spiders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawler node: serves the queues of one spider ({@code <spider>:*:queue}) together with any number of
 * other nodes on any number of machines. It discovers domains with work, takes leased requests under the
 * cluster-wide throttle, fetches them, runs the spider, files the new requests and publishes the results
 * (see {@link RequestProcessor}); it follows the ZooKeeper domain config, looks up its public IP, renews
 * its leases, returns expired leases of dead nodes (every node reaps), beats its heartbeat
 * {@code stats:crawler:<host>:<spider>:<uuid12>} and counts responses by status. Health checks:
 * {@code redis}, {@code kafka}, {@code zookeeper}.
 */
public final class CrawlerNode implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlerNode.class);
    private static final Duration REAPER_DISCOVERY = Duration.ofMinutes(1);
    private static final int REAP_BATCH = 500;
    /**
     * {@link System#nanoTime} as an instant source: the scheduler's readiness times, the lease keeper's renewal times and
     * the stop's budget do not jump when the wall clock is set (one set back would hold renewals off until leases expire
     * mid-fetch).
     */
    private static final InstantSource MONOTONIC = StopBudget.MONOTONIC;

    private final ServiceContext context;
    private final CrawlerConfig config;
    private final Deque<Owned<?>> resources = new ArrayDeque<>();
    private RequestProcessor processor;
    private boolean closed;

    public CrawlerNode(ServiceContext context) {
        this.context = context;
        this.config = CrawlerConfig.from(context.settings());
    }

    @Override
    public String name() {
        return "crawler";
    }

    @Override
    public synchronized void start() {
        try {
            startParts();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        LOG.atInfo().addKeyValue("spiderid", config.spiderName()).addKeyValue("node", context.node().uuid12())
                .log("Crawler node started");
    }

    private void startParts() {
        Settings settings = context.settings();
        Spider spider = Spiders.named(config.spiderName(), settings);
        LinkRules links = new LinkRules(ExtensionLoader.of(LinkFilter.class, "link filters", settings).ordered("LINK_FILTERS"));
        String spiderId = spider.name();
        String nodeId = context.node().uuid12();
        RedisConnection redis = own(connectRedis(settings, context.meters()));
        context.health().register("redis", () -> redis.answers() ? Health.up() : Health.down("not connected, or no answer"));
        CrawlerMetrics metrics = new CrawlerMetrics(context.meters(), spiderId, nodeId);
        DomainThrottles throttles = new DomainThrottles(spiderId, config.throttleKeyStyle(), config.queueWindow(), config.queueHits(),
                config.queueModerated(), PublicIpLookup.FALLBACK, config.robotsMaxHosts());
        startPublicIp(settings, throttles);

        // Created in the reverse order of closing: see close().
        StatsRecorder stats = own(new StatsRecorder(redis, nodeId, context.clock(), Duration.ofSeconds(1),
                settings.getBoolean("STATS_ORIGINAL_KEYS")));
        StatusCounters statusCounters = new StatusCounters(stats, context.node().hostname(), spiderId, config.statsResponseCodes(),
                StatsWindow.parse(settings.getStringList("STATS_TIMES")), settings.getBoolean("STATS_STATUS_CODES"));
        stats.start();
        // the pipelines close first: a page still going out keeps its lease until it is out (or given up)
        LeaseKeeper leaseKeeper = own(new LeaseKeeper(new Leases(redis), spiderId, config.limits().lease(), metrics, MONOTONIC),
                (keeper, budget) -> keeper.close(StopStep.ACKNOWLEDGEMENTS.grantedBy(budget)));
        Pipelines pipelines = own(Pipelines.open(new PipelineContext(settings, spiderId, metrics, context.health(), context.clock())),
                (stages, budget) -> stages.close(StopStep.PIPELINES.grantedBy(budget)));
        ExecutorService workers = own(Executors.newFixedThreadPool(config.workerThreads(),
                Thread.ofPlatform().name("crawler-worker-" + spiderId + "-", 1).daemon().factory()),
                (pool, budget) -> shutdown(pool, StopStep.WORKERS.grantedBy(budget)));
        Fetcher fetcher = own(new HttpFetcher(config.fetcher()), (http, budget) -> http.close(StopStep.FETCHER.grantedBy(budget)));
        RobotsCache robots = new RobotsCache(fetcher, config.robotName(), config.robotsCacheTime(), config.robotsRetry(),
                config.robotsMaxHosts(), config.robotsMaxBytes(), context.clock());
        metrics.cache("robots", robots.hosts());
        metrics.cache("robots-last-read", robots.lastRead());
        metrics.cache("robots-rules", robots.rules());
        metrics.cache("robots-domains", throttles.robotsRead());
        SchedulerInbox inbox = new SchedulerInbox();
        DomainConfigFollower follower = ownBackground(new DomainConfigFollower(throttles, spiderId, metrics, inbox::configChanged),
                DomainConfigFollower::close);
        RequestCodec codec = new RequestCodec();
        ThrottledQueue throttledQueue = new ThrottledQueue(redis);
        Enqueuer enqueuer = new Enqueuer(redis, settings.getBoolean("QUEUE_FIFO"));
        DupefilterMemory dupefilterMemory = new DupefilterMemory(config.dupefilterMemory(), config.filing().dupefilterTtl(),
                context.clock());
        metrics.cache("dupefilter", dupefilterMemory.fingerprints());
        RequestFiler filer = new RequestFiler(enqueuer, dupefilterMemory, codec, spiderId, config.filing(), follower::isBlacklisted,
                metrics);
        DownloadChain chain = DownloadChain.load(settings, new MiddlewareContext(config.robotsObey(), robots, throttles, throttledQueue,
                config.retry(), config.redirect(), config.backoff(), statusCounters, metrics, context.clock()), fetcher);
        processor = new RequestProcessor(config,
                new RequestProcessor.Parts(codec, chain, spider, links, filer, pipelines, leaseKeeper, statusCounters, metrics),
                workers, inbox::finished, new ResultDelivery(inbox, metrics, context.clock()));
        Scheduler scheduler = new Scheduler(spiderId, throttledQueue, throttles, follower::holdsBack, new LeaseHolder(nodeId),
                config.limits(), metrics, inbox, MONOTONIC, processor::process);

        follower.start(ZooKeeperConnection.to(settings.getString("ZOOKEEPER_HOSTS")),
                settings.getString("ZOOKEEPER_ASSIGN_PATH") + settings.getString("ZOOKEEPER_ID"));
        context.health().register("zookeeper", follower::health);
        LeaseReaper reaper = ownBackground(new LeaseReaper(redis, config.leaseReapInterval(), REAPER_DISCOVERY, REAP_BATCH),
                LeaseReaper::close);
        reaper.watch(spiderId);
        metrics.leasesReaped(reaper);
        reaper.start();
        leaseKeeper.start();
        Heartbeat heartbeat = ownBackground(new Heartbeat(redis, Keyspace.CRAWLER_HEARTBEAT.fill(context.node().hostname(), spiderId,
                nodeId), config.ipRefresh().multipliedBy(2), config.ipRefresh(), context.clock()), Heartbeat::close);
        heartbeat.start();
        own(scheduler, (stopping, budget) -> {
            stopping.close(StopStep.SCHEDULER.grantedBy(budget));
            drain(StopStep.DRAIN.grantedBy(budget));
        });
        scheduler.start();
        context.health().register("scheduler", HealthRegistry.Kind.LIVENESS, scheduler::liveness);
        Discovery discovery = ownBackground(new Discovery(redis, spiderId, config.discoveryInterval(), config.queueRefresh(),
                inbox::domainsFound), Discovery::close);
        discovery.start();
    }

    /** Looks the public IP up now (bounded by PUBLIC_IP_TIMEOUT) and every SCHEDULER_IP_REFRESH, when keys carry it. */
    private void startPublicIp(Settings settings, DomainThrottles throttles) {
        String fixed = settings.getNullableString("PUBLIC_IP");
        if (fixed != null && !fixed.isBlank()) {
            throttles.publicIp(fixed.strip());
            return;
        }
        if (!config.throttleKeyStyle().byIp()) {
            return;
        }
        PublicIpLookup lookup = new PublicIpLookup(settings.getString("PUBLIC_IP_URL"), settings.getString("IP_ADDR_REGEX"),
                settings.getSeconds("PUBLIC_IP_TIMEOUT"));
        throttles.publicIp(lookup.lookUp());
        Ticker refresh = ownBackground(new Ticker("crawler-public-ip"), Ticker::close);
        refresh.every(config.ipRefresh(), config.ipRefresh(), () -> throttles.publicIp(lookup.lookUp()));
    }

    /**
     * The connection to Redis, retried until Redis answers, or until the process is told to stop: a node started while
     * Redis is away waits for it, and a Ctrl-C meanwhile ends the start instead of waiting out the process's grace.
     */
    private static RedisConnection connectRedis(Settings settings, MeterRegistry meters) {
        RedisEndpoint endpoint = RedisEndpoint.from(settings);
        return RedisConnection.openRetrying(endpoint, meters, LOG, ShutdownSignal::jvmIsShuttingDown)
                .orElseThrow(() -> new IllegalStateException("stopped, or interrupted, while connecting to Redis at " + endpoint));
    }

    private <T extends AutoCloseable> T own(T resource) {
        return own(resource, (part, budget) -> part.close());
    }

    /** Closes a background task with the node, waiting for it at most what the budget grants {@link StopStep#BACKGROUND}. */
    private <T> T ownBackground(T task, BackgroundStop<T> stop) {
        return own(task, (part, budget) -> stop.stop(part, StopStep.BACKGROUND.grantedBy(budget)));
    }

    /** Closes {@code part} with the node, as {@code stop} says, in the reverse order of owning. */
    private <T> T own(T part, PartStop<T> stop) {
        resources.push(new Owned<>(part, stop));
        return part;
    }

    /**
     * Stops taking requests (discovery, scheduler), lets those in flight finish for a few seconds, stops
     * the background tasks, cancels the fetches left, flushes the pipelines (so that a page still going out is
     * published and acknowledged, or given up, before its lease is touched), hands the leases still held back to
     * their queues, flushes the statistics, and closes the Redis connection. The waits share one {@link StopBudget},
     * which ends before the process's shutdown grace ({@link CrawlerCommand#SHUTDOWN_GRACE}) and keeps its last seconds
     * for the acknowledgements and the hand-back. A part whose close throws, an exception or an error other than the
     * JVM's own ({@link ExtensionFailures}), is logged, and the parts after it are closed all the same.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        StopBudget budget = StopStep.budget(CrawlerCommand.SHUTDOWN_GRACE, MONOTONIC);
        while (!resources.isEmpty()) {
            Owned<?> owned = resources.pop();
            try {
                owned.stop(budget);
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                LOG.atWarn().setCause(e).log("Could not close " + owned.part() + " cleanly");
            }
        }
        LOG.atInfo().addKeyValue("spiderid", config.spiderName()).log("Closing Spider");
    }

    /** Waits for the requests in flight to finish, at most {@code wait}. */
    private void drain(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (processor.active() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void shutdown(ExecutorService workers, Duration wait) {
        workers.shutdown();
        try {
            workers.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How a part of the node stops, within what {@code budget} grants its waits. */
    @FunctionalInterface
    private interface PartStop<T> {
        void stop(T part, StopBudget budget) throws Exception;
    }

    /** How a background task stops, waiting at most {@code wait}. */
    @FunctionalInterface
    private interface BackgroundStop<T> {
        void stop(T task, Duration wait);
    }

    /** A part the node closes when it stops. */
    private record Owned<T>(T part, PartStop<T> stop) {

        void stop(StopBudget budget) throws Exception {
            stop.stop(part, budget);
        }
    }
}
