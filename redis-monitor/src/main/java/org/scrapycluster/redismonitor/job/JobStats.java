package org.scrapycluster.redismonitor.job;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.stats.StatsCounter;
import org.scrapycluster.common.stats.StatsRecorder;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Counts jobs: in the original's statistics keys ({@code stats:redis-monitor:total}, {@code :fail}
 * and {@code :<plugin>} windows, docs/compatibility.md §3.1, when {@code STATS_TOTAL} /
 * {@code STATS_PLUGINS} are on), and as Micrometer meters: {@code redismonitor.jobs} by plugin and
 * outcome, and the time from a job's lock to its answer, {@code redismonitor.job.duration}.
 */
public final class JobStats {

    /** How a handled job ended, the {@code outcome} tag of {@code redismonitor.jobs}. */
    public enum Outcome {
        /** Handled and answered. */
        ANSWERED,
        /** Failed; kept for another attempt. */
        FAILED,
        /** Failed too often; answered with an error and deleted. */
        GIVEN_UP,
        /** Cannot be done; answered with an error and deleted. */
        REJECTED
    }

    private static final String SERVICE = "redis-monitor";

    private final StatsRecorder recorder;
    private final List<Long> windows;
    private final StatsCounter total;
    private final StatsCounter fail;
    private final boolean perPlugin;
    private final MeterRegistry meters;
    private final Map<String, StatsCounter> plugins = new ConcurrentHashMap<>();

    /**
     * @param recorder  where the counts go
     * @param windows   the rolling windows in seconds ({@code STATS_TIMES})
     * @param totals    whether to count {@code total} and {@code fail} ({@code STATS_TOTAL})
     * @param perPlugin whether to count per plugin ({@code STATS_PLUGINS})
     * @param meters    the service's meter registry
     */
    public JobStats(StatsRecorder recorder, List<Long> windows, boolean totals, boolean perPlugin, MeterRegistry meters) {
        this.recorder = recorder;
        this.windows = List.copyOf(windows);
        this.total = totals ? recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, "total"), windows) : null;
        this.fail = totals ? recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, "fail"), windows) : null;
        this.perPlugin = perPlugin;
        this.meters = meters;
    }

    /** A job of {@code plugin} is about to be handled (its precondition held). */
    void started(JobPlugin plugin) {
        if (total != null) {
            total.increment();
        }
        if (perPlugin) {
            plugins.computeIfAbsent(plugin.name(), name -> recorder.counter(Keyspace.SERVICE_STATS.fill(SERVICE, name), windows)).increment();
        }
    }

    /**
     * A job of {@code plugin} ended with {@code outcome} after {@code elapsed}. Only a failure counts in
     * {@code stats:redis-monitor:fail}, as in the original; a rejected job was handled, with an error answer.
     */
    void ended(JobPlugin plugin, Outcome outcome, Duration elapsed) {
        if ((outcome == Outcome.FAILED || outcome == Outcome.GIVEN_UP) && fail != null) {
            fail.increment();
        }
        Counter.builder("redis.monitor.jobs")
                .description("Jobs handled, by plugin and outcome")
                .tag("plugin", plugin.name())
                .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(meters)
                .increment();
        if (outcome == Outcome.ANSWERED) {
            Timer.builder("redis.monitor.job.duration")
                    .description("Time from taking a job's lock to Kafka taking its answer")
                    .tag("plugin", plugin.name())
                    .register(meters)
                    .record(elapsed);
        }
    }
}
