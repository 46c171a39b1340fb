package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.scrapycluster.api.Spider;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.LeaseReaper;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisClock;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.Heartbeat;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.common.stats.StatsWindow;
import org.scrapycluster.common.zookeeper.ConfigNodePath;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.middleware.ClusterThrottle;
import org.scrapycluster.crawler.middleware.DownloadChain;
import org.scrapycluster.crawler.middleware.MiddlewareContext;
import org.scrapycluster.crawler.pipeline.PipelineContext;
import org.scrapycluster.crawler.pipeline.Pipelines;
import org.scrapycluster.crawler.request.RequestCodec;
import org.scrapycluster.crawler.robots.RedisServerErrorRows;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawler node: serves the queues of one spider ({@code <spider>:*:queue}) together with any number of
 * other nodes on any number of machines. It discovers domains with work, takes leased requests under the
 * cluster-wide throttle, fetches them, runs the spider, files the new requests and publishes the results
 * (see {@link RequestProcessor}); it follows the ZooKeeper domain config, looks up its public IP, renews
 * its leases, returns expired leases of dead nodes (every node reaps), beats its heartbeat
 * {@code stats:crawler:<host>:<spider>:<uuid12>} and counts responses by status. Health checks:
 * {@code redis}, {@code kafka}, {@code zookeeper}; liveness: {@code scheduler}.
 *
 * <p>Starting does not wait for Redis: the settings are checked and the parts that need no Redis opened at once (a bad
 * setting fails the start), then the node connects on a thread of its own, retrying with back-off, and starts crawling
 * once connected. A stop meanwhile ends the wait.
 */
public final class CrawlerNode implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(CrawlerNode.class);
    private static final int REAP_BATCH = 500;
    /**
     * {@link System#nanoTime} as an instant source: the scheduler's readiness times, the lease keeper's renewal times and
     * the stop's budget do not jump when the wall clock is set (one set back would hold renewals off until leases expire
     * mid-fetch).
     */
    private static final InstantSource MONOTONIC = StopBudget.MONOTONIC;

    private final ServiceContext context;
    private final CrawlerConfig config;
    private final RedisEndpoint endpoint;
    /** The parts the others use until they close: the Redis connection, the public IP's refresh, the statistics, the leases. */
    private final Deque<Owned<?>> foundation = new ArrayDeque<>();
    /** The other parts, closed before the foundation. */
    private final Deque<Owned<?>> parts = new ArrayDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Thread starter;
    /** Whether the {@link #starter} is still connecting to Redis: only then does a close interrupt it. */
    private boolean connecting;
    private volatile RedisConnection redis;
    private volatile Scheduler scheduler;
    private volatile String startFailure;
    private RequestProcessor processor;
    /** The longest the stop lets the requests in flight finish, besides what its budget grants ({@link #close(Duration)}). */
    private Duration drainAtMost = StopStep.DRAIN.cap();

    public CrawlerNode(ServiceContext context) {
        this.context = context;
        this.config = CrawlerConfig.from(context.settings());
        this.endpoint = RedisEndpoint.from(context.settings());
    }

    /**
     * Refuses the settings a node could not start with, as its start would before it connects: every value in range,
     * its spider, link filters, middlewares and pipelines found and made (the pipelines not opened); connects to
     * nothing.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        CrawlerConfig config = CrawlerConfig.from(settings);
        RedisEndpoint.from(settings);
        publicIpLookup(settings, config);
        ZooKeeperConnection.of(settings);
        ConfigNodePath.of(settings);
        NodeExtensions.check(settings);
        Pipelines.check(settings);
        StatsWindow.parse(settings.getStringList("STATS_TIMES"));
        CountedStatusCodes.from(settings);
    }

    @Override
    public String name() {
        return "crawler";
    }

    /**
     * Loads what the settings name (a bad one throws here) and opens the parts that do not need Redis, then returns: the
     * node connects to Redis on a thread of its own, retrying while Redis cannot be reached, and starts crawling once
     * connected. Meanwhile its {@code redis} check is down and its {@code scheduler} liveness check up.
     */
    @Override
    public synchronized void start() {
        if (closed.get()) {
            throw new IllegalStateException("the crawler node is closed");
        }
        RedisParts rest;
        try {
            rest = startWithoutRedis();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        context.health().register("redis", this::redisHealth);
        context.health().register("scheduler", HealthRegistry.Kind.LIVENESS, this::schedulerHealth);
        connecting = true;
        starter = Thread.ofPlatform().name("crawler-start-" + config.spiderName()).daemon().start(() -> connectAndStart(rest));
    }

    private Health redisHealth() {
        RedisConnection connection = redis;
        if (connection != null) {
            return connection.answers() ? Health.up() : Health.down("not connected, or no answer");
        }
        String failure = startFailure;
        return Health.down(failure != null ? "the node could not start: " + failure : "connecting to " + endpoint);
    }

    private Health schedulerHealth() {
        Scheduler running = scheduler;
        if (running != null) {
            return running.liveness();
        }
        String failure = startFailure;
        return failure != null ? Health.down("the node could not start: " + failure) : Health.up("waiting for Redis at " + endpoint);
    }

    /**
     * The connection to Redis, retried until Redis answers or the node is closed, then the parts that use it; a failure
     * there is logged, closes the node and turns its liveness check down.
     */
    private void connectAndStart(RedisParts rest) {
        RedisConnection connection = RedisConnection.openRetrying(endpoint, context.meters(), LOG,
                () -> closed.get() || ShutdownSignal.jvmIsShuttingDown()).orElse(null);
        synchronized (this) {
            connecting = false;
            Thread.interrupted(); // a close's interrupt that came after the wait: it was meant for the wait only
            if (connection == null) {
                return;
            }
            if (closed.get()) {
                connection.close();
                return;
            }
            try {
                rest.start(ownFoundation(connection));
            } catch (RuntimeException e) {
                startFailure = e.toString();
                LOG.atError().setCause(e).addKeyValue("spiderid", config.spiderName()).log("The crawler node could not start");
                closeParts();
                return;
            }
            redis = connection;
        }
        LOG.atInfo().addKeyValue("spiderid", config.spiderName()).addKeyValue("node", context.node().uuid12())
                .log("Crawler node started");
    }

    /** Builds what needs no Redis; returns how to build and start the rest once Redis is connected. */
    private RedisParts startWithoutRedis() {
        Settings settings = context.settings();
        // Owned in the reverse order of closing: see close(). The extensions close last, the pipelines before them, after
        // the workers; and the leases after all of them.
        AtomicReference<ExecutorService> workerPool = new AtomicReference<>();
        NodeExtensions extensions = own(NodeExtensions.load(settings),
                (loaded, budget) -> closeOnceIdle(loaded, workerPool.get(), StopStep.EXTENSIONS.grantedBy(budget)));
        Spider spider = extensions.spider();
        String spiderId = spider.name();
        String nodeId = context.node().uuid12();
        CrawlerMetrics metrics = new CrawlerMetrics(context.meters(), spiderId, nodeId);
        LinkRules links = new LinkRules(extensions.linkFilters(), config.linkRegexPageTime(), metrics::linksCut);
        DomainThrottles throttles = new DomainThrottles(spiderId, config.throttleKeyStyle(), config.queueWindow(), config.queueHits(),
                config.queueModerated(), PublicIpLookup.FALLBACK, config.robotsMaxHosts());
        throttles.longestCrawlDelay(config.robotsMaxCrawlDelay());
        fixedPublicIp(settings).ifPresent(throttles::publicIp);
        Optional<PublicIpLookup> publicIp = publicIpLookup(settings, config);
        List<Long> statsWindows = StatsWindow.parse(settings.getStringList("STATS_TIMES"));
        ZooKeeperConnection zookeeper = ZooKeeperConnection.of(settings);
        String configNode = ConfigNodePath.of(settings);

        // what the node stamps for the cluster (its results' records and times, its statistics) is on Redis's clock
        RedisClock redisClock = ownFoundation(new RedisClock(context.clock()));
        Pipelines pipelines = own(Pipelines.open(new PipelineContext(settings, spiderId, metrics, context.health(), redisClock)),
                (stages, budget) -> stages.close(StopStep.PIPELINES.grantedBy(budget)));
        ExecutorService workers = own(WorkerPool.start(config.workerThreads(), spiderId),
                (pool, budget) -> shutdown(pool, StopStep.WORKERS.grantedBy(budget)));
        workerPool.set(workers);
        Fetcher fetcher = own(new HttpFetcher(config.fetcher()), (http, budget) -> http.close(StopStep.FETCHER.grantedBy(budget)));
        metrics.cache("robots-domains", throttles.robotsRead());
        SchedulerInbox inbox = new SchedulerInbox();
        DomainConfigFollower follower = ownBackground(new DomainConfigFollower(throttles, spiderId, metrics, inbox::configChanged),
                DomainConfigFollower::close);
        RequestCodec codec = new RequestCodec();
        DupefilterMemory dupefilterMemory = new DupefilterMemory(config.dupefilterMemory(), config.filing().dupefilterTtl(),
                context.clock());
        metrics.cache("dupefilter", dupefilterMemory.fingerprints());

        return connection -> {
            publicIp.ifPresent(lookup -> startPublicIp(lookup, throttles));
            redisClock.follow(connection);
            StatsRecorder stats = ownFoundation(new StatsRecorder(connection, nodeId, redisClock, Duration.ofSeconds(1),
                    settings.getBoolean("STATS_ORIGINAL_KEYS")));
            StatusCounters statusCounters = new StatusCounters(stats, context.node().hostname(), spiderId,
                    CountedStatusCodes.from(settings), statsWindows);
            stats.start();
            LeaseKeeper leaseKeeper = ownFoundation(new LeaseKeeper(new Leases(connection), spiderId, config.limits().lease(), metrics,
                    MONOTONIC), (keeper, budget) -> keeper.close(StopStep.ACKNOWLEDGEMENTS.grantedBy(budget)));
            RobotsCache robots = robotsCache(fetcher, connection, workers, metrics);
            ThrottledQueue throttledQueue = new ThrottledQueue(connection);
            Enqueuer enqueuer = new Enqueuer(connection, settings.getBoolean("QUEUE_FIFO"));
            RequestFiler filer = new RequestFiler(enqueuer, dupefilterMemory, codec, spiderId, config.filing(), follower::isBlacklisted,
                    metrics, workers);
            DownloadChain chain = DownloadChain.open(extensions.middlewares(), new MiddlewareContext(config.robotsObey(), robots, throttles,
                    ClusterThrottle.of(throttledQueue), inbox, config.retry(), config.redirect(), config.backoff(), statusCounters,
                    metrics, context.clock()), fetcher);
            ResultDelivery delivery = new ResultDelivery(inbox, metrics, context.clock());
            processor = new RequestProcessor(config,
                    new RequestProcessor.Parts(codec, chain, spider, links, filer, pipelines, leaseKeeper, statusCounters, metrics),
                    workers, inbox::finished, delivery, error -> cannotGoOn("The crawler", error));
            Scheduler newScheduler = new Scheduler(spiderId, throttledQueue, throttles, follower::holdsBack, new LeaseHolder(nodeId),
                    config.limits(), metrics, inbox, MONOTONIC, processor::process);

            follower.start(zookeeper, configNode);
            context.health().register("zookeeper", follower::health);
            LeaseReaper reaper = ownBackground(LeaseReaper.ofSpider(connection, spiderId, config.leaseReapInterval(), REAP_BATCH),
                    LeaseReaper::close);
            metrics.leasesReaped(reaper);
            reaper.start();
            leaseKeeper.start();
            Heartbeat heartbeat = ownBackground(new Heartbeat(connection, Keyspace.CRAWLER_HEARTBEAT.fill(context.node().hostname(), spiderId,
                    nodeId), config.ipRefresh().multipliedBy(2), config.ipRefresh(), context.clock()), Heartbeat::close);
            heartbeat.start();
            own(newScheduler, (stopping, budget) -> {
                stopping.close(StopStep.SCHEDULER.grantedBy(budget));
                delivery.nodeStopping();
                Duration granted = StopStep.DRAIN.grantedBy(budget);
                drain(granted.compareTo(drainAtMost) < 0 ? granted : drainAtMost);
            });
            newScheduler.start(error -> cannotGoOn("The crawler's scheduler", error));
            scheduler = newScheduler;
            Discovery discovery = ownBackground(new Discovery(connection, spiderId, config.discoveryInterval(), config.queueRefresh(),
                    inbox::domainsFound), Discovery::close);
            discovery.start();
        };
    }

    /** The robots.txt files of the node, whose server errors the cluster counts in Redis; with their caches' metrics. */
    private RobotsCache robotsCache(Fetcher fetcher, RedisConnection connection, ExecutorService workers, CrawlerMetrics metrics) {
        RobotsCache robots = new RobotsCache(fetcher, config.robotName(), config.robotsCacheTime(), config.robotsRetry(),
                config.robotsMaxHosts(), config.robotsMaxBytes(), new RedisServerErrorRows(connection, config.robotsRetry()),
                context.clock(), workers);
        metrics.cache("robots", robots.hosts());
        metrics.cache("robots-last-read", robots.lastRead());
        metrics.cache("robots-rules", robots.rules());
        return robots;
    }

    /** {@code PUBLIC_IP}, when it is set. */
    private static Optional<String> fixedPublicIp(Settings settings) {
        String fixed = settings.getNullableString("PUBLIC_IP");
        return fixed == null || fixed.isBlank() ? Optional.empty() : Optional.of(fixed.strip());
    }

    /** The look-up of this node's public IP, when its throttle keys hold it and {@code PUBLIC_IP} does not say it. */
    private static Optional<PublicIpLookup> publicIpLookup(Settings settings, CrawlerConfig config) {
        if (fixedPublicIp(settings).isPresent() || !config.throttleKeyStyle().byIp()) {
            return Optional.empty();
        }
        return Optional.of(PublicIpLookup.from(settings));
    }

    /** Looks the public IP up now (bounded by PUBLIC_IP_TIMEOUT) and every SCHEDULER_IP_REFRESH. */
    private void startPublicIp(PublicIpLookup lookup, DomainThrottles throttles) {
        throttles.publicIp(lookup.lookUp());
        Ticker refresh = ownFoundation(new Ticker("crawler-public-ip"),
                (ticker, budget) -> ticker.close(StopStep.BACKGROUND.grantedBy(budget)));
        refresh.every(config.ipRefresh(), config.ipRefresh(), () -> throttles.publicIp(lookup.lookUp()));
    }

    private <T extends AutoCloseable> T ownFoundation(T resource) {
        return ownFoundation(resource, (part, budget) -> part.close());
    }

    /** Closes {@code part} with the node, after every part of {@link #parts}, in the reverse order of owning. */
    private <T> T ownFoundation(T part, PartStop<T> stop) {
        foundation.push(new Owned<>(part, stop));
        return part;
    }

    /** Closes a background task with the node, waiting for it at most what the budget grants {@link StopStep#BACKGROUND}. */
    private <T> T ownBackground(T task, BackgroundStop<T> stop) {
        return own(task, (part, budget) -> stop.stop(part, StopStep.BACKGROUND.grantedBy(budget)));
    }

    /** Closes {@code part} with the node, as {@code stop} says, in the reverse order of owning, before the foundation. */
    private <T> T own(T part, PartStop<T> stop) {
        parts.push(new Owned<>(part, stop));
        return part;
    }

    /**
     * Ends the wait for Redis, if the node is still connecting (a start of the parts that use Redis is waited for); then
     * stops taking requests (discovery, scheduler), lets those in flight finish for a few seconds, stops the background
     * tasks, cancels the fetches left, flushes the pipelines (so that a page still going out is published and
     * acknowledged, or given up, before its lease is touched), hands the leases still held back to their queues, flushes
     * the statistics, and closes the Redis connection. The waits share one {@link StopBudget}, which ends before the
     * process's shutdown grace ({@link CrawlerCommand#SHUTDOWN_GRACE}) and keeps its last seconds for the
     * acknowledgements and the hand-back. A part whose close throws, an exception or an error other than the JVM's own
     * ({@link ExtensionFailures}), is logged, and the parts after it are closed all the same.
     */
    @Override
    public void close() {
        close(StopStep.DRAIN.cap());
    }

    /**
     * {@link #close()}, letting the requests in flight finish for at most {@code drainAtMost} instead of
     * {@link StopStep#DRAIN}'s 10 s: for tests of a stop that finds a request which cannot finish before the fetcher or
     * the pipelines close (every later step is as on any stop).
     */
    void close(Duration drainAtMost) {
        if (closed.getAndSet(true)) {
            return;
        }
        Thread waiting;
        synchronized (this) { // the parts that use Redis are started under this lock: the starter is waiting for Redis, or done
            waiting = connecting ? starter : null;
            if (waiting != null) {
                waiting.interrupt();
            }
        }
        if (waiting != null) {
            try {
                waiting.join(Ticker.STOP_TIMEOUT); // it closes a connection it has just made
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            this.drainAtMost = drainAtMost;
            closeParts();
        }
        LOG.atInfo().addKeyValue("spiderid", config.spiderName()).log("Closing Spider");
    }

    /**
     * Ends the process after an error the node cannot go on from ({@link FatalExit}); the requests it holds return to
     * their queues, those in flight handed back as the node stops, the one that failed when its lease expires.
     */
    private static void cannotGoOn(String what, Throwable error) {
        FatalExit.exit(LOG, what, error, "and the requests the node holds return to their queues");
    }

    /** Closes every part owned, the foundation last, within one {@link StopBudget}. */
    private void closeParts() {
        StopBudget budget = StopStep.budget(CrawlerCommand.SHUTDOWN_GRACE, MONOTONIC);
        for (Deque<Owned<?>> owned : List.of(parts, foundation)) {
            while (!owned.isEmpty()) {
                Owned<?> part = owned.pop();
                try {
                    part.stop(budget);
                } catch (Throwable e) {
                    ExtensionFailures.rethrowIfFatal(e);
                    LOG.atWarn().setCause(e).log("Could not close " + part.part() + " cleanly");
                }
            }
        }
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

    /**
     * Closes the spider, link filters and middlewares once no worker may call them: at once when the workers have ended
     * (or never started), else when they do, for at most a minute, on a thread of its own (the stop's wait for the workers
     * ran out with one still parsing), as the process's exit allows.
     */
    private static void closeOnceIdle(NodeExtensions extensions, ExecutorService workers, Duration wait) {
        if (workers == null || workers.isTerminated()) {
            extensions.close(wait);
            return;
        }
        List<String> atWork = WorkerPool.atWork(extensions.spider().name());
        LOG.warn("The workers are still running{}; the spider, link filters and downloader middlewares close when they end",
                atWork.isEmpty() ? "" : " (" + String.join(", ", atWork) + ")");
        Thread.ofPlatform().daemon().name("crawler-close-extensions").start(() -> {
            try {
                if (workers.awaitTermination(1, TimeUnit.MINUTES)) {
                    extensions.close(wait);
                } else {
                    LOG.warn("The workers did not end within a minute; the spider, link filters and downloader middlewares"
                            + " are left unclosed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
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

    /** The parts of the node built and started once Redis is connected, on {@code redis}. */
    @FunctionalInterface
    private interface RedisParts {
        void start(RedisConnection redis);
    }

    /** A part the node closes when it stops. */
    private record Owned<T>(T part, PartStop<T> stop) {

        void stop(StopBudget budget) throws Exception {
            stop.stop(part, budget);
        }
    }
}
