package org.scrapycluster.redismonitor;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;

import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.LeaseReaper;
import org.scrapycluster.common.queue.SpiderCensus;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisClock;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.stats.Heartbeat;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.redismonitor.completion.CrawlCompletion;
import org.scrapycluster.redismonitor.job.JobFailures;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobProcessor;
import org.scrapycluster.redismonitor.job.JobRetries;
import org.scrapycluster.redismonitor.job.JobScanner;
import org.scrapycluster.redismonitor.job.JobSignalListener;
import org.scrapycluster.redismonitor.job.JobStats;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.job.Worker;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.scrapycluster.redismonitor.stats.BacklogMeters;
import org.scrapycluster.redismonitor.stats.StatsDumper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.FunctionCounter;

/**
 * The parts of a Redis monitor that work on a Redis connection, once it is open: statistics and
 * heartbeat, the plugins, the scan and signal workers, the lease reaper, crawl completion and the
 * stats dumps. Started together, closed in the reverse order.
 */
final class RunningMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunningMonitor.class);
    private static final Duration STATS_FLUSH = Duration.ofSeconds(1);
    /**
     * What the waits of the monitor's stop have together (docs/operations.md, "Stopping"): the jobs in hand, the plugins'
     * closes, the background runs in progress and the last writes. It ends {@link OutboundPublisher#CLOSE_TIMEOUT}
     * before the process's shutdown grace does, for the Kafka producer's close that follows. Of it {@link #LAST_WRITES}
     * is kept for the writes, which the waits before them cannot use.
     */
    static final Duration STOP_WAITS = RedisMonitorCommand.SHUTDOWN_GRACE.minus(OutboundPublisher.CLOSE_TIMEOUT);
    /**
     * Kept, of {@link #STOP_WAITS}, for the last writes together (the release of the backlog lock, the removal of the
     * heartbeat, the statistics), which also have what the waits before them left.
     */
    static final Duration LAST_WRITES = Duration.ofSeconds(10);

    private final Deque<Part> parts = new ArrayDeque<>();
    private final ServiceContext context;
    private final MonitorOptions options;
    private final RedisConnection redis;
    private final RedisClock redisClock;
    private final OutboundPublisher outbound;
    private final List<PluginLoader.PluginSpec> specs;
    private final StopTimes stopTimes;

    /**
     * What the waits of a stop have together, and of it what is kept for the last writes: {@link #SERVICE} for the
     * service; a test of a stop that uses them up passes shorter ones.
     */
    record StopTimes(Duration waits, Duration lastWrites) {

        /** {@link #STOP_WAITS}, of which {@link #LAST_WRITES}. */
        static final StopTimes SERVICE = new StopTimes(STOP_WAITS, LAST_WRITES);
    }

    /** @param redisClock Redis's time, measured through {@code redis} from the start on; its owner closes it */
    RunningMonitor(ServiceContext context, MonitorOptions options, RedisConnection redis, RedisClock redisClock,
                   OutboundPublisher outbound, List<PluginLoader.PluginSpec> specs, StopTimes stopTimes) {
        this.context = context;
        this.options = options;
        this.redis = redis;
        this.redisClock = redisClock;
        this.outbound = outbound;
        this.specs = specs;
        this.stopTimes = stopTimes;
    }

    /** Builds and starts every part; when one fails, those started are closed. */
    void start() {
        try {
            startParts();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void startParts() {
        own(redis);
        RedisLocks locks = ownTicking(new RedisLocks(redis, options.lockExpiry()), RedisLocks::close);
        redisClock.follow(redis);
        StatsRecorder recorder = own(new StatsRecorder(redis, context.node().uuid12(), redisClock, STATS_FLUSH,
                context.settings().getBoolean("STATS_ORIGINAL_KEYS")), StatsRecorder::close);
        recorder.start();
        // the parts that write to Redis as they close start before the others, so that they close after them: their
        // writes are the stop's last waits, which an early one stalled by Redis cannot take from the plugins' closes
        Heartbeat heartbeat = own(new Heartbeat(redis, Keyspace.HEARTBEAT.fill("redis-monitor", context.node().toString()), options.heartbeatTtl(),
                options.heartbeatPeriod(), context.clock()), Heartbeat::close);
        heartbeat.start();
        ownTicking(new KeyspaceWatch(redis, context.clock(), context.meters()), KeyspaceWatch::close).start(options.heartbeatPeriod());
        SpiderCensus census = new SpiderCensus(redis, options.spiderCensusPeriod(), StopBudget.MONOTONIC);
        if (!options.backlogPeriod().isZero()) {
            BacklogMeters backlog = new BacklogMeters(redis, census, locks, context.meters(), options.backlogTopDomains(), context.clock());
            own(backlog, BacklogMeters::close).start(options.backlogPeriod());
        }

        JobStats stats = new JobStats(recorder, options.statsWindows(), options.statsTotal(), options.statsPlugins(), context.meters());
        List<JobPlugin> plugins = PluginLoader.build(specs, new PluginContext(context.settings(), redis, redisClock, context.health()));
        own(plugins, PluginLoader::closeAll);
        JobRetries retries = new JobRetries(StopBudget.MONOTONIC, options.scanPause());
        JobProcessor processor = new JobProcessor(redis, locks,
                new JobFailures(redis, options.retryFailures(), options.retryFailuresMax()), outbound, stats, redisClock, retries);

        JobSignalListener listener = own(new JobSignalListener(options.redis(), plugins, processor, retries));
        Worker signal = new Worker("redis-monitor-signal", listener, new OutageReporter(LOG, "Waiting for signalled jobs"));
        Worker scan = new Worker("redis-monitor-scan", new JobScanner(redis, plugins, processor, redisClock, options.scanPause()),
                new OutageReporter(LOG, "Scanning for jobs"));
        // a job in hand that outlasts its interrupt is cut short before the plugins' closes are
        own(List.of(signal, scan), (workers, budget) -> Worker.closeAll(workers, budget.keeping(PluginLoader.CLOSE_WAIT)));
        signal.start();
        context.health().register("signal-loop", HealthRegistry.Kind.LIVENESS, signal::liveness);
        scan.start();
        context.health().register("scan-loop", HealthRegistry.Kind.LIVENESS, scan::liveness);

        LeaseReaper reaper = ownTicking(LeaseReaper.ofEverySpider(redis, options.leaseReapPeriod(), census,
                options.leaseReapBatch()), LeaseReaper::close);
        FunctionCounter.builder("redis.monitor.leases.reaped", reaper, LeaseReaper::returnedTotal)
                .description("Expired leases returned to their queues").register(context.meters());
        reaper.start();

        ownTicking(new CrawlCompletion(redis, locks, outbound, options.completeQuiet(), options.completeForeignQuiet(),
                context.meters()), CrawlCompletion::close)
                .start(options.completionPeriod());

        if (!options.statsDump().isZero()) {
            ownTicking(new StatsDumper(redis, context.clock(), options.statsDumpCrawl(), options.statsDumpQueue()), StatsDumper::close)
                    .start(options.statsDump());
        }
        LOG.atInfo().addKeyValue("plugins", plugins.stream().map(JobPlugin::name).toList())
                .log("Redis monitor running with {} plugins", plugins.size());
    }

    private <T extends AutoCloseable> T own(T part) {
        return own(part, (closing, budget) -> closing.close());
    }

    /**
     * Owns {@code part}, whose background thread stops as {@code close} says, waiting for a run in progress at most
     * {@link Ticker#STOP_TIMEOUT} and at most what the stop's budget grants an ordinary wait.
     */
    private <T> T ownTicking(T part, BiConsumer<T, Duration> close) {
        return own(part, (closing, budget) -> close.accept(closing, budget.waitFor(Ticker.STOP_TIMEOUT)));
    }

    /** Owns {@code part}, which closes as {@code stop} says, within what the stop's budget grants. */
    private <T> T own(T part, PartStop<T> stop) {
        parts.push(new Part(part, budget -> stop.close(part, budget)));
        return part;
    }

    /**
     * Closes every part, last started first; one whose close throws, an exception or an error other than the JVM's own
     * ({@link ExtensionFailures}), is logged, and the others are closed all the same. Every wait of the stop shares one
     * {@link StopBudget} ({@link #STOP_WAITS}, of which the last {@link #LAST_WRITES} are kept for the last writes, or the
     * {@link StopTimes} given): the
     * workers' jobs in hand ({@link Worker#closeAll}), the background runs in progress, and the plugins' closes, last
     * first on threads of their own, within {@link PluginLoader#CLOSE_WAIT} together (one still closing then is logged
     * and left to finish alone), get what is left before the reserve, the workers what is left before the plugins'
     * time too; so a slow job, plugin or Redis holds the stop up that long at most, and does not use up the time of the
     * release of the backlog lock, the removal of the heartbeat and the last statistics. What was not written is said
     * in one WARN line, each write with why.
     */
    @Override
    public void close() {
        StopBudget budget = StopBudget.of(stopTimes.waits(), stopTimes.lastWrites(), StopBudget.MONOTONIC);
        while (!parts.isEmpty()) {
            Part part = parts.pop();
            try {
                part.stop().close(budget);
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                LOG.warn("Could not close {} cleanly: {}", part.part().getClass().getSimpleName(), e.toString());
            }
        }
        budget.warnGivenUp(LOG, "Not written at stop");
    }

    /** How a part closes, within what {@code budget} grants its waits. */
    @FunctionalInterface
    private interface PartStop<T> {
        void close(T part, StopBudget budget) throws Exception;
    }

    /** A part the monitor closes when it stops, and how. */
    private record Part(Object part, Stop stop) {
    }

    /** A part's close within the stop's budget. */
    @FunctionalInterface
    private interface Stop {
        void close(StopBudget budget) throws Exception;
    }
}
