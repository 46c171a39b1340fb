package org.scrapycluster.kafkamonitor.stats;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.StatsCounter;
import org.scrapycluster.common.stats.StatsReader;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.common.stats.StatsWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka monitor's statistics in Redis (docs/compatibility.md §2.6): {@code stats:kafka-monitor:total}
 * (every record) and {@code :fail} (every rejected one) with {@code STATS_TOTAL}, and
 * {@code stats:kafka-monitor:<plugin>} (every request a plugin's schema matched) with
 * {@code STATS_PLUGINS}, each with a rolling window per {@code STATS_TIMES} entry and a lifetime
 * count. Counting is in memory; the counts are written once a second. Every {@code STATS_DUMP}
 * seconds (0: never) the values are logged as {@code Kafka Monitor Stats Dump} with the fields
 * {@code total_<w>}, {@code fail_<w>} and {@code plugin_<name>_<w>}.
 */
public final class IntakeStats implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IntakeStats.class);
    private static final String SERVICE = "kafka-monitor";
    private static final Duration FLUSH_INTERVAL = Duration.ofSeconds(1);

    private final StatsRecorder recorder;
    private final StatsReader reader;
    private final List<Long> windows;
    private final Optional<StatsCounter> total;
    private final Optional<StatsCounter> fail;
    private final Map<String, StatsCounter> plugins = new LinkedHashMap<>();
    private final OutageReporter dumpOutage = new OutageReporter(LOG, "Kafka Monitor Stats Dump");
    private final Ticker dumps = new Ticker("kafka-monitor-stats-dump");

    /**
     * What the statistics settings ask for, read and checked when the monitor is built.
     *
     * @param windows      the rolling windows of {@code STATS_TIMES}, in seconds
     * @param totals       {@code STATS_TOTAL}
     * @param perPlugin    {@code STATS_PLUGINS}
     * @param dumpSeconds  {@code STATS_DUMP}, 0 for no dumps
     * @param originalKeys {@code STATS_ORIGINAL_KEYS}: rolling windows as the original's sorted sets
     */
    public record Config(List<Long> windows, boolean totals, boolean perPlugin, long dumpSeconds, boolean originalKeys) {

        public Config {
            windows = List.copyOf(windows);
        }

        /** @throws org.scrapycluster.common.settings.SettingsException when {@code STATS_DUMP} is negative */
        public static Config from(Settings settings) {
            long dumpSeconds = settings.getLong("STATS_DUMP");
            if (dumpSeconds < 0) {
                throw settings.invalid("STATS_DUMP", "cannot be negative; 0 turns the dumps off");
            }
            return new Config(StatsWindow.parse(settings.getStringList("STATS_TIMES")), settings.getBoolean("STATS_TOTAL"),
                    settings.getBoolean("STATS_PLUGINS"), dumpSeconds, settings.getBoolean("STATS_ORIGINAL_KEYS"));
        }
    }

    /**
     * Counters for the plugins named {@code pluginNames}, written with {@code redis}; members of
     * the lifetime counts are made unique by {@code nodeId}.
     */
    public IntakeStats(Config config, RedisConnection redis, String nodeId, Clock clock, List<String> pluginNames) {
        this.recorder = new StatsRecorder(redis, nodeId, clock, FLUSH_INTERVAL, config.originalKeys());
        this.reader = new StatsReader(redis, clock);
        this.windows = config.windows();
        this.total = config.totals() ? Optional.of(recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, "total"), windows)) : Optional.empty();
        this.fail = config.totals() ? Optional.of(recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, "fail"), windows)) : Optional.empty();
        if (config.perPlugin()) {
            pluginNames.forEach(name -> plugins.put(name, recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, name), windows)));
        }
        recorder.start();
        if (config.dumpSeconds() > 0) {
            Duration period = Duration.ofSeconds(config.dumpSeconds());
            dumps.every(period, period, this::dumpQuietly);
        }
    }

    /** Counts records taken from Kafka. */
    public void total(int records) {
        total.ifPresent(counter -> counter.increment(records));
    }

    /** Counts one rejected record. */
    public void fail() {
        fail.ifPresent(StatsCounter::increment);
    }

    /** Counts one request the plugin {@code name}'s schema matched. */
    public void plugin(String name) {
        StatsCounter counter = plugins.get(name);
        if (counter != null) {
            counter.increment();
        }
    }

    /** The values the stats dump logs, read from Redis: {@code total_900}, {@code fail_lifetime}, {@code plugin_ScraperHandler_3600}, ... */
    public Map<String, Long> values() {
        Map<String, Long> values = new LinkedHashMap<>();
        total.ifPresent(counter -> read(values, "total", counter));
        fail.ifPresent(counter -> read(values, "fail", counter));
        plugins.forEach((name, counter) -> read(values, "plugin_" + name, counter));
        return values;
    }

    private void read(Map<String, Long> values, String label, StatsCounter counter) {
        for (long window : windows) {
            values.put(label + "_" + window, reader.value(Keyspace.STATS_WINDOW.fill(counter.keyPrefix(), String.valueOf(window))).orElse(0));
        }
        values.put(label + "_lifetime", reader.value(Keyspace.STATS_LIFETIME.fill(counter.keyPrefix())).orElse(0));
    }

    private void dumpQuietly() {
        try {
            Map<String, Long> values = values();
            var event = LOG.atInfo();
            values.forEach(event::addKeyValue);
            event.log("Kafka Monitor Stats Dump");
            dumpOutage.succeeded();
        } catch (RedisException e) {
            dumpOutage.failed(e);
        }
    }

    /** Stops the dumps and writes the counts not written yet (when Redis answers). */
    @Override
    public void close() {
        dumps.close();
        recorder.close();
    }
}
