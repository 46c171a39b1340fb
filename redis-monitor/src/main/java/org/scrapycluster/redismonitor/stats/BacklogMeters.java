package org.scrapycluster.redismonitor.stats;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.lettuce.core.RedisException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.SpiderCensus;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLock;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue backlog as Prometheus gauges (docs/operations.md "Monitoring"), for dashboards and for
 * autoscaling crawlers: {@code redis_monitor_queue_backlog{spider}}, the largest domain queues of
 * each spider as {@code redis_monitor_queue_domain_backlog{spider,domain}}, and
 * {@code redis_monitor_crawls_active}. A spider's backlog stays exported, as 0, once its queues are
 * drained, so that an autoscaler sees the drop: while a crawler node runs for it, and {@link #DRAINED_KEPT} after that
 * (a spiderid no crawler runs, sent by mistake, is exported no longer). One Redis monitor of the cluster at a time holds the lock
 * {@code lock:metrics:backlog} and exports them, so that a sum over monitors counts each request
 * once; the others export none until they take the lock over.
 *
 * <p>The cost does not grow with the queued requests: the domains of a spider come from its
 * {@code <spiderid>:active_domains} index (a queue leaves it when a hand-out finds it empty, or a purge empties it), and
 * each queue is sized with one {@code ZCARD}, pipelined. The spiders are those with an index, as the monitor's
 * {@link SpiderCensus} last found them (one paced pass over the keyspace serves it and the lease reaper). Queues written by a component that keeps
 * no index (a Python Kafka monitor) are not counted here; a {@code stats} request counts them. An index or
 * queue of another type is left out and logged once (docs/operations.md "Keys Redis refuses").
 */
public final class BacklogMeters implements AutoCloseable {

    /** The lock that elects the one monitor exporting the backlog. */
    private static final String LOCK = Keyspace.BACKLOG_METERS_LOCK;
    private static final Logger LOG = LoggerFactory.getLogger(BacklogMeters.class);
    /** How long a drained spider no crawler node runs for is still exported as 0: a few scrapes, for autoscalers to see. */
    public static final Duration DRAINED_KEPT = Duration.ofMinutes(10);

    private final RedisConnection redis;
    private final SpiderCensus census;
    private final RedisLocks locks;
    /**
     * This monitor's token for the lock, the same at every take: a take whose answer Redis gave late (after an outage)
     * leaves the lock with it, and this monitor takes it again rather than waiting out its expiry without exporting.
     */
    private final String holder = RedisLocks.newToken();
    private final int topDomains;
    private final MultiGauge spiders;
    private final MultiGauge domains;
    private final MultiGauge activeCrawls;
    private final OutageReporter outage = new OutageReporter(LOG, "Measuring the queue backlog");
    private final RefusedKeys refused = new RefusedKeys(LOG, "Measuring the queue backlog");
    private final Ticker ticker = new Ticker("redis-monitor-backlog");
    /**
     * The spiders whose backlog is exported, 0 once drained, each with when it last had an index or a crawler node: those
     * since this monitor took the lock, but for one that has had neither for {@link #DRAINED_KEPT}.
     */
    private final Map<String, Instant> spidersSeen = new TreeMap<>();
    private final InstantSource clock;
    private RedisLock lock;
    private boolean exporting;

    /**
     * @param census     where the spiders with an active-domain index are found
     * @param topDomains how many of each spider's largest domain queues to export ({@code BACKLOG_METRICS_TOP_DOMAINS})
     * @param clock      what tells how long a spider has been drained
     */
    public BacklogMeters(RedisConnection redis, SpiderCensus census, RedisLocks locks, MeterRegistry meters, int topDomains,
            InstantSource clock) {
        this.redis = redis;
        this.clock = clock;
        this.census = census;
        this.locks = locks;
        this.topDomains = topDomains;
        this.spiders = MultiGauge.builder("redis.monitor.queue.backlog")
                .description("Requests queued per spider (leased ones excluded), exported by one Redis monitor").register(meters);
        this.domains = MultiGauge.builder("redis.monitor.queue.domain.backlog")
                .description("Requests queued in the largest domain queues of each spider").register(meters);
        this.activeCrawls = MultiGauge.builder("redis.monitor.crawls.active")
                .description("Crawls not yet announced complete, exported by one Redis monitor").register(meters);
    }

    /** Measures every {@code period}, the first time at once. */
    public void start(Duration period) {
        ticker.every(Duration.ZERO, period, this::refreshQuietly);
    }

    /**
     * Takes (or keeps) the lock and, holding it, measures and exports the backlog; without it,
     * exports nothing.
     *
     * @return whether this monitor exports the backlog now
     */
    public synchronized boolean refresh() {
        if (lock != null && !lock.isHeld()) {
            lock.close();
            lock = null;
        }
        if (lock == null) {
            Optional<RedisLock> taken = locks.tryAcquireAs(LOCK, holder);
            if (taken.isEmpty()) {
                if (exporting) {
                    LOG.info("This Redis monitor no longer exports the queue backlog meters: another one holds the lock");
                }
                stopExporting();
                return false;
            }
            lock = taken.get();
            if (exporting) {
                LOG.info("This Redis monitor took the lock again and goes on exporting the queue backlog meters");
            }
        }
        measure();
        return true;
    }

    private void measure() {
        Instant now = clock.instant();
        census.withActiveDomains().forEach(spider -> spidersSeen.put(spider, now));
        census.withCrawlers().forEach(spider -> spidersSeen.computeIfPresent(spider, (name, last) -> now));
        spidersSeen.values().removeIf(last -> !last.plus(DRAINED_KEPT).isAfter(now));
        List<MultiGauge.Row<?>> spiderRows = new ArrayList<>();
        List<MultiGauge.Row<?>> domainRows = new ArrayList<>();
        for (String spider : spidersSeen.keySet()) {
            String index = Keyspace.activeDomains(spider);
            Optional<List<String>> read = refused.read(index, () -> redis.sync().zrange(index, 0, -1));
            if (read.isEmpty()) {
                continue;
            }
            List<String> active = read.get();
            List<CompletableFuture<Long>> sizes = new ArrayList<>(active.size());
            for (String domain : active) {
                sizes.add(redis.async().zcard(new QueueKey(spider, domain).key()).toCompletableFuture());
            }
            long total = 0;
            List<DomainBacklog> nonEmpty = new ArrayList<>();
            for (int i = 0; i < active.size(); i++) {
                long size = refused.await(redis, new QueueKey(spider, active.get(i)).key(), sizes.get(i)).orElse(0L);
                if (size > 0) {
                    total += size;
                    nonEmpty.add(new DomainBacklog(active.get(i), size));
                }
            }
            spiderRows.add(MultiGauge.Row.of(Tags.of("spider", spider), total));
            nonEmpty.stream().sorted(Comparator.comparingLong(DomainBacklog::size).reversed().thenComparing(DomainBacklog::domain))
                    .limit(topDomains)
                    .forEach(d -> domainRows.add(MultiGauge.Row.of(Tags.of("spider", spider, "domain", d.domain()), d.size())));
        }
        long crawls = redis.sync().zcard(Keyspace.CRAWLS_ACTIVE);
        spiders.register(spiderRows, true);
        domains.register(domainRows, true);
        activeCrawls.register(List.of(MultiGauge.Row.of(Tags.empty(), crawls)), true);
        if (!exporting) {
            exporting = true;
            LOG.info("This Redis monitor exports the queue backlog meters");
        }
    }

    private void stopExporting() {
        spiders.register(List.of(), true);
        domains.register(List.of(), true);
        activeCrawls.register(List.of(), true);
        spidersSeen.clear();
        exporting = false;
    }

    private void refreshQuietly() {
        try {
            refresh();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (RuntimeException e) {
            LOG.error("Measuring the queue backlog failed", e);
        }
    }

    /**
     * Stops measuring, interrupting a measurement in progress (not under the lock it holds, so that one waiting for Redis
     * is cut short rather than waited for), then stops exporting and releases the lock.
     */
    @Override
    public void close() {
        close(Ticker.STOP_TIMEOUT, RedisLock::close);
    }

    /**
     * Closes as {@link #close()} does, within {@code budget}: the measurement in progress is waited for at most what it
     * grants an ordinary wait, and the lock is released as one of the monitor's last writes.
     */
    public void close(StopBudget budget) {
        close(budget.waitFor(Ticker.STOP_TIMEOUT), held -> held.close(budget));
    }

    private void close(Duration measurementWait, Consumer<RedisLock> release) {
        ticker.close(measurementWait);
        synchronized (this) {
            stopExporting();
            if (lock != null) {
                release.accept(lock);
                lock = null;
            }
        }
    }

    private record DomainBacklog(String domain, long size) {
    }
}
