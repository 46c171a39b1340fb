package org.scrapycluster.common.stats;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * One named event count of a service ({@code stats:kafka-monitor:total}, a plugin, an HTTP status),
 * with a rolling window per configured length and a lifetime count. Counting is in memory and
 * costs no Redis call; the {@link StatsRecorder} that made it writes the counts once a second.
 * Thread-safe.
 */
public final class StatsCounter {

    private final String keyPrefix;
    private final Clock clock;
    private final List<RollingWindowCounter> windows;
    private final LifetimeCounter lifetime;
    private Map<Long, Long> eventsBySecond = new HashMap<>();

    StatsCounter(String keyPrefix, List<Long> windowSeconds, Clock clock) {
        this.keyPrefix = keyPrefix;
        this.clock = clock;
        this.windows = windowSeconds.stream().map(seconds -> new RollingWindowCounter(Keyspace.STATS_WINDOW.fill(keyPrefix, String.valueOf(seconds)), seconds)).toList();
        this.lifetime = new LifetimeCounter(Keyspace.STATS_LIFETIME.fill(keyPrefix));
    }

    /** The key prefix, {@code stats:<service>:<name>}. */
    public String keyPrefix() {
        return keyPrefix;
    }

    public void increment() {
        increment(1);
    }

    public void increment(long events) {
        if (events <= 0) {
            return;
        }
        long second = Math.floorDiv(clock.millis(), 1000);
        synchronized (this) {
            eventsBySecond.merge(second, events, Long::sum);
        }
    }

    List<RollingWindowCounter> windows() {
        return windows;
    }

    LifetimeCounter lifetime() {
        return lifetime;
    }

    /** Takes the events counted since the last call, by epoch second. */
    synchronized Map<Long, Long> drain() {
        Map<Long, Long> drained = eventsBySecond;
        eventsBySecond = new HashMap<>();
        return drained;
    }
}
