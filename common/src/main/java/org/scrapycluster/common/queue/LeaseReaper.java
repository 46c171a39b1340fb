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
import org.scrapycluster.common.redis.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Leases#reap} periodically, so that requests of a crawler that died return to their
 * queues; reaping is idempotent. A Redis monitor's reaper reaps every spider that has leases, as its
 * {@link SpiderCensus} finds them (a pass over the keyspace at start, then every period of the census, or less
 * often on a large keyspace; not every tick). A crawler node's reaps its own spider's leases only,
 * and scans nothing, so that the scans do not grow with the nodes. Redis
 * outages are reported once and retried every period. A spider whose keys Redis refuses (one of the
 * wrong type, in a corrupted or hand-edited keyspace) is reported once and skipped, so that the other
 * spiders' leases are still returned.
 */
public final class LeaseReaper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseReaper.class);

    private final Leases leases;
    private final Duration period;
    /** Where the spiders with leases are found; none for a reaper of one spider. */
    private final Optional<SpiderCensus> census;
    private final int batch;
    private final Set<String> spiders = ConcurrentHashMap.newKeySet();
    private final OutageReporter outage = new OutageReporter(LOG, "Lease reaping");
    private final Ticker ticker = new Ticker("lease-reaper");
    private final AtomicLong returnedTotal = new AtomicLong();
    /** Spiders whose keys Redis refuses, each reported once, not at every tick. */
    private final RefusedKeys refused = new RefusedKeys(LOG, "Lease reaping");

    private LeaseReaper(RedisConnection redis, Duration period, Optional<SpiderCensus> census, int batch) {
        this.leases = new Leases(redis);
        this.period = period;
        this.census = census;
        this.batch = batch;
    }

    /**
     * A reaper of every spider that has leases: a Redis monitor's.
     *
     * @param period how often due leases are returned
     * @param census where the spiders with leases are found
     * @param batch  leases returned per script call
     */
    public static LeaseReaper ofEverySpider(RedisConnection redis, Duration period, SpiderCensus census, int batch) {
        return new LeaseReaper(redis, period, Optional.of(census), batch);
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
        census.ifPresent(found -> spiders.addAll(found.withLeases()));
        int returned = 0;
        for (String spider : spiders) {
            returned += refused.read(spider, () -> reap(spider)).orElse(0);
        }
        returnedTotal.addAndGet(returned);
        if (returned > 0) {
            // due leases: of nodes that died or stalled, and those a node handed back untried (a stop's, a wait for robots.txt)
            LOG.info("Returned {} leases to their queues, expired or handed back", returned);
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
