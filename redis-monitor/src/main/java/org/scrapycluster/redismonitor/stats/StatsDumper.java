package org.scrapycluster.redismonitor.stats;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.stats.StatsReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Writes the original's periodic stats dumps to the log (docs/compatibility.md §3.10, the fields the
 * ELK dashboards chart, §7.9) every {@code STATS_DUMP} seconds: {@code Redis Monitor Stats Dump}
 * ({@code total_<w>}, {@code fail_<w>}, {@code plugin_<Plugin>_<w>}), with {@code STATS_DUMP_CRAWL}
 * {@code Crawler Stats Dump} ({@code <spider>_<code>_<w>}, {@code unique_spider_count},
 * {@code total_spider_count}, {@code <spider>_spider_count}) and with {@code STATS_DUMP_QUEUE}
 * {@code Queue Stats Dump} ({@code queue_<spider>: {spider_backlog, num_domains}},
 * {@code total_backlog}). The fields are the record's key-value pairs. One pass over the keyspace finds the keys of
 * all three ({@link StatsKeys}).
 */
public final class StatsDumper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatsDumper.class);
    private static final String SERVICE_KEYS = Keyspace.SERVICE_STATS.glob("redis-monitor");

    private final StatsReader reader;
    private final StatsValues values;
    private final CrawlerStats crawlers;
    private final QueueStats queues;
    private final boolean crawl;
    private final boolean queue;
    private final OutageReporter outage = new OutageReporter(LOG, "Stats dump");
    private final Ticker ticker = new Ticker("redis-monitor-stats-dump");

    /**
     * @param crawl whether to dump the crawler statistics too ({@code STATS_DUMP_CRAWL})
     * @param queue whether to dump the queue backlogs too ({@code STATS_DUMP_QUEUE})
     */
    public StatsDumper(RedisConnection redis, Clock clock, boolean crawl, boolean queue) {
        this.reader = new StatsReader(redis, clock);
        StatsKeys keys = new StatsKeys(redis, StopBudget.MONOTONIC);
        this.values = new StatsValues(reader, keys);
        this.crawlers = new CrawlerStats(values);
        this.queues = new QueueStats(redis, keys);
        this.crawl = crawl;
        this.queue = queue;
    }

    /** Dumps every {@code period}, the first time one period from now. */
    public void start(Duration period) {
        ticker.every(period, period, this::dumpQuietly);
    }

    /** Writes the dumps once. */
    public void dump() {
        Map<String, Object> monitor = new LinkedHashMap<>();
        for (String key : values.keys(SERVICE_KEYS)) {
            String[] parts = key.split(":", -1);
            if (parts.length == 4 && !parts[2].equals("self")) {
                boolean totals = parts[2].equals("total") || parts[2].equals("fail");
                reader.value(key).ifPresent(value -> monitor.put((totals ? "" : "plugin_") + parts[2] + "_" + parts[3], value));
            }
        }
        log("Redis Monitor Stats Dump", monitor);
        if (crawl) {
            Map<String, Object> crawler = new LinkedHashMap<>();
            crawlers.read().spiders().forEach((spider, section) -> {
                if (section instanceof Map<?, ?> codes) {
                    codes.forEach((code, windows) -> {
                        if (windows instanceof Map<?, ?> counts) {
                            counts.forEach((window, count) -> crawler.put(spider + "_" + code + "_" + window, count));
                        } else {
                            crawler.put(spider + "_spider_count", windows);
                        }
                    });
                } else {
                    crawler.put(spider, section);
                }
            });
            log("Crawler Stats Dump", crawler);
        }
        if (queue) {
            log("Queue Stats Dump", queues.read(false));
        }
    }

    private void dumpQuietly() {
        try {
            dump();
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        } catch (RuntimeException e) {
            LOG.error("Stats dump failed", e);
        }
    }

    private static void log(String message, Map<String, Object> fields) {
        LoggingEventBuilder event = LOG.atInfo();
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            event = event.addKeyValue(field.getKey(), field.getValue());
        }
        event.log(message);
    }

    @Override
    public void close() {
        ticker.close();
    }

    /** Stops the dumps, waiting at most {@code wait} for one in progress to end. */
    public void close(Duration wait) {
        ticker.close(wait);
    }
}
