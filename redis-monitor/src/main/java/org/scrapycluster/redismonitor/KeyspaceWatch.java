package org.scrapycluster.redismonitor;

import java.time.Clock;
import java.time.Duration;

import io.lettuce.core.RedisException;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a Redis that lost the cluster's keys (restarted without its data, flushed), which Redis itself answers as
 * any other: every period the cluster's mark ({@link Keyspace#KEYSPACE_MARK}) is written if absent, and one found absent
 * after it was there is said at ERROR and counted ({@code redis_monitor_keyspace_lost_total}), since the crawls in
 * progress then end without a completion notice and are answered as empty (docs/operations.md, "Redis durability").
 */
final class KeyspaceWatch {

    private static final Logger LOG = LoggerFactory.getLogger(KeyspaceWatch.class);

    private final RedisConnection redis;
    private final Clock clock;
    private final Counter lost;
    private final OutageReporter outage = new OutageReporter(LOG, "Looking at the cluster's mark in Redis");
    private final Ticker ticker = new Ticker("redis-monitor-keyspace");
    private boolean seen;

    KeyspaceWatch(RedisConnection redis, Clock clock, MeterRegistry meters) {
        this.redis = redis;
        this.clock = clock;
        this.lost = Counter.builder("redis.monitor.keyspace.lost")
                .description("Times the cluster's keys were found gone from Redis (restarted without its data, or flushed)")
                .register(meters);
    }

    /** Looks now and then every {@code period}, in the background. */
    void start(Duration period) {
        ticker.every(Duration.ZERO, period, this::look);
    }

    /** Writes the mark if Redis has none; says so when it had been there. */
    void look() {
        String written;
        try {
            String now = Long.toString(clock.instant().getEpochSecond());
            written = redis.sync().set(Keyspace.KEYSPACE_MARK, now, SetArgs.Builder.nx());
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
            return;
        }
        if (written != null && seen) {
            lost.increment();
            LOG.atError().addKeyValue("key", Keyspace.KEYSPACE_MARK).log("Redis no longer holds the cluster's keys (restarted without"
                    + " its data, or flushed): the crawls, queues, leases, dupefilters and jobs it held are gone; crawls in progress"
                    + " end without a completion notice");
        }
        seen = true;
    }

    /** Stops looking, waiting at most {@code wait} for a look in progress. */
    void close(Duration wait) {
        ticker.close(wait);
    }
}
