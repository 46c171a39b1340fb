package org.scrapycluster.redismonitor;

import java.time.Duration;
import java.util.List;

import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.StatsWindow;

/**
 * The Redis monitor's settings, read and checked once when the service is built, so that a bad
 * value stops it at start with a message naming the setting.
 *
 * @param redis                where Redis is ({@code REDIS_*})
 * @param scanPause            {@code SLEEP_TIME}: the least pause between scans for job keys
 * @param retryFailures        {@code RETRY_FAILURES}
 * @param retryFailuresMax     {@code RETRY_FAILURES_MAX}
 * @param lockExpiry           {@code REDIS_LOCK_EXPIRATION}
 * @param heartbeatTtl         {@code HEARTBEAT_TIMEOUT}
 * @param statsWindows         {@code STATS_TIMES} in seconds
 * @param statsTotal           {@code STATS_TOTAL}
 * @param statsPlugins         {@code STATS_PLUGINS}
 * @param statsDump            {@code STATS_DUMP}; zero for no dumps
 * @param statsDumpCrawl       {@code STATS_DUMP_CRAWL}
 * @param statsDumpQueue       {@code STATS_DUMP_QUEUE}
 * @param completeQuiet        {@code CRAWL_COMPLETE_QUIET_SECONDS}
 * @param completeForeignQuiet {@code CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS}
 * @param leaseReapPeriod      {@code LEASE_REAP_PERIOD}
 * @param leaseDiscoveryPeriod {@code LEASE_DISCOVERY_PERIOD}
 * @param leaseReapBatch       {@code LEASE_REAP_BATCH}
 * @param backlogPeriod        {@code BACKLOG_METRICS_PERIOD}; zero for no backlog meters
 * @param backlogTopDomains    {@code BACKLOG_METRICS_TOP_DOMAINS}
 */
record MonitorOptions(RedisEndpoint redis, Duration scanPause, boolean retryFailures, int retryFailuresMax, Duration lockExpiry,
                      Duration heartbeatTtl, List<Long> statsWindows, boolean statsTotal, boolean statsPlugins, Duration statsDump,
                      boolean statsDumpCrawl, boolean statsDumpQueue, Duration completeQuiet, Duration completeForeignQuiet,
                      Duration leaseReapPeriod,
                      Duration leaseDiscoveryPeriod, int leaseReapBatch, Duration backlogPeriod, int backlogTopDomains) {

    private static final Duration SHORTEST_PERIOD = Duration.ofMillis(1);

    /**
     * The least time between two passes of the monitor's {@link org.scrapycluster.common.queue.SpiderCensus}, which
     * serves the lease reaper and the backlog meters: the shorter of their periods.
     */
    Duration spiderCensusPeriod() {
        return backlogPeriod.isZero() || leaseDiscoveryPeriod.compareTo(backlogPeriod) <= 0 ? leaseDiscoveryPeriod : backlogPeriod;
    }

    /** Reads the options of {@code settings}, refusing values that cannot work. */
    static MonitorOptions from(Settings settings) {
        return new MonitorOptions(
                RedisEndpoint.from(settings),
                notNegative(settings, "SLEEP_TIME"),
                settings.getBoolean("RETRY_FAILURES"),
                atLeast(settings, "RETRY_FAILURES_MAX", 0),
                positive(settings, "REDIS_LOCK_EXPIRATION"),
                atLeastSeconds(settings, "HEARTBEAT_TIMEOUT", 2),
                StatsWindow.parse(settings.getStringList("STATS_TIMES")),
                settings.getBoolean("STATS_TOTAL"),
                settings.getBoolean("STATS_PLUGINS"),
                notNegative(settings, "STATS_DUMP"),
                settings.getBoolean("STATS_DUMP_CRAWL"),
                settings.getBoolean("STATS_DUMP_QUEUE"),
                notNegative(settings, "CRAWL_COMPLETE_QUIET_SECONDS"),
                notNegative(settings, "CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS"),
                positive(settings, "LEASE_REAP_PERIOD"),
                positive(settings, "LEASE_DISCOVERY_PERIOD"),
                atLeast(settings, "LEASE_REAP_BATCH", 1),
                notNegative(settings, "BACKLOG_METRICS_PERIOD"),
                atLeast(settings, "BACKLOG_METRICS_TOP_DOMAINS", 0));
    }

    /** How often to beat: a quarter of the TTL, between 1 s and 5 s. */
    Duration heartbeatPeriod() {
        return clamp(heartbeatTtl.dividedBy(4), Duration.ofSeconds(1), Duration.ofSeconds(5));
    }

    /** How often to look for finished crawls: a quarter of the quiet period, between 0.1 s and 1 s. */
    Duration completionPeriod() {
        return clamp(completeQuiet.dividedBy(4), Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    private static Duration clamp(Duration value, Duration least, Duration most) {
        return value.compareTo(least) < 0 ? least : value.compareTo(most) > 0 ? most : value;
    }

    private static Duration notNegative(Settings settings, String name) {
        Duration value = settings.getSeconds(name);
        if (value.isNegative()) {
            throw settings.invalid(name, "cannot be negative");
        }
        return value;
    }

    private static Duration positive(Settings settings, String name) {
        Duration value = settings.getSeconds(name);
        if (value.compareTo(SHORTEST_PERIOD) < 0) {
            throw settings.invalid(name, "must be more than 0");
        }
        return value;
    }

    private static Duration atLeastSeconds(Settings settings, String name, long least) {
        Duration value = settings.getSeconds(name);
        if (value.getSeconds() < least) {
            throw settings.invalid(name, "must be at least " + least + " seconds");
        }
        return value;
    }

    private static int atLeast(Settings settings, String name, int least) {
        int value = settings.getInt(name);
        if (value < least) {
            throw settings.invalid(name, "must be at least " + least + ", was " + value);
        }
        return value;
    }
}
