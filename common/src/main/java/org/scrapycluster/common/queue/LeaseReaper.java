package org.scrapycluster.common.queue;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.scrapycluster.common.redis.ScanPace;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Leases#reap} periodically, so that requests of a crawler that died return to their
 * queues; reaping is idempotent. A Redis monitor's reaper reaps every spider that has leases, found
 * with {@code SCAN MATCH *:leases} at start and then every {@code discoveryPeriod}, or less often on a
 * keyspace so large that its scan would take more than a fortieth of the time ({@link ScanPace}; a scan
 * visits the whole keyspace, so not every tick). A crawler node's reaps its own spider's leases only,
 * and scans nothing, so that the scans do not grow with the nodes. Redis
 * outages are reported once and retried every period. A spider whose keys Redis refuses (one of the
 * wrong type, in a corrupted or hand-edited keyspace) is reported once and skipped, so that the other
 * spiders' leases are still returned.
 */
public final class LeaseReaper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseReaper.class);

    private final Leases leases;
    private final QueueDirectory directory;
    private final Duration period;
    /** The pace of the scans for spiders with leases; none for a reaper of one spider. */
    private final Optional<ScanPace> discovery;
    private final int batch;
    private final Set<String> spiders = ConcurrentHashMap.newKeySet();
    private final OutageReporter outage = new OutageReporter(LOG, "Lease reaping");
    private final Ticker ticker = new Ticker("lease-reaper");
    private final AtomicLong returnedTotal = new AtomicLong();
    /** Spiders whose keys Redis refuses, each reported once, not at every tick. */
    private final RefusedKeys refused = new RefusedKeys(LOG, "Lease reaping");

    private LeaseReaper(RedisConnection redis, Duration period, Optional<ScanPace> discovery, int batch) {
        this.leases = new Leases(redis);
        this.directory = new QueueDirectory(redis);
        this.period = period;
        this.discovery = discovery;
        this.batch = batch;
    }

    /**
     * A reaper of every spider that has leases: a Redis monitor's.
     *
     * @param period          how often due leases are returned
     * @param discoveryPeriod how often spiders with leases are looked for
     * @param batch           leases returned per script call
     */
    public static LeaseReaper ofEverySpider(RedisConnection redis, Duration period, Duration discoveryPeriod, int batch) {
        return new LeaseReaper(redis, period, Optional.of(new ScanPace(discoveryPeriod, StopBudget.MONOTONIC)), batch);
    }

    /** A reaper of {@code spiderId}'s leases only, which scans nothing: a crawler node's, as {@link #ofEverySpider}. */
    public static LeaseReaper ofSpider(RedisConnection redis, String spiderId, Duration period, int batch) {
        LeaseReaper reaper = new LeaseReaper(redis, period, Optional.empty(), batch);
        reaper.spiders.add(spiderId);
        return reaper;
    }

    /** Starts reaping in the background. */
    public void start() {
        ticker.every(Duration.ZERO, period, this::tick);
    }

    /**
     * One pass: discovers spiders when due (a reaper of every spider), then returns every due lease of every known spider.
     *
     * @return the number of requests put back into queues
     * @throws RedisException when Redis cannot be reached (not when it refuses one spider's keys)
     */
    public synchronized int reapOnce() {
        discovery.flatMap(pace -> pace.ifDue(directory::spidersWithLeases)).ifPresent(spiders::addAll);
        int returned = 0;
        for (String spider : spiders) {
            returned += refused.read(spider, () -> reap(spider)).orElse(0);
        }
        returnedTotal.addAndGet(returned);
        if (returned > 0) {
            LOG.info("Returned {} expired leases to their queues", returned);
        }
        return returned;
    }

    /** Returns every due lease of {@code spider}, a batch at a time: the number returned. */
    private int reap(String spider) {
        int returned = 0;
        Leases.ReapResult result;
        do {
            result = leases.reap(spider, batch);
            returned += result.returned();
        } while (result.more());
        return returned;
    }

    /** Requests put back into queues since this reaper was made, for a metric. */
    public long returnedTotal() {
        return returnedTotal.get();
    }

    private void tick() {
        try {
            reapOnce();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (RuntimeException e) {
            LOG.error("Lease reaping failed", e);
        }
    }

    @Override
    public void close() {
        ticker.close();
    }

    /** Stops reaping, waiting at most {@code wait} for a pass in progress. */
    public void close(Duration wait) {
        ticker.close(wait);
    }
}
