package org.scrapycluster.common.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The health checks of a process, by name ("redis", "kafka", "zookeeper", ...). A check must
 * answer at once from what its service already knows (connected or not), never by waiting on a
 * server. A {@link #scoped scoped} view, as each service in standalone gets, prefixes its names
 * with the service's ({@code kafka-monitor.redis}) and shares the checks with the whole.
 */
public final class HealthRegistry {

    private final ConcurrentSkipListMap<String, Supplier<Health>> checks;
    private final String prefix;

    private HealthRegistry(ConcurrentSkipListMap<String, Supplier<Health>> checks, String prefix) {
        this.checks = checks;
        this.prefix = prefix;
    }

    public HealthRegistry() {
        this(new ConcurrentSkipListMap<>(), "");
    }

    /** A view whose checks are named {@code <scope>.<name>} in this registry. */
    public HealthRegistry scoped(String scope) {
        return new HealthRegistry(checks, prefix + scope + ".");
    }

    /** Adds or replaces the check {@code name}. */
    public void register(String name, Supplier<Health> check) {
        checks.put(prefix + name, check);
    }

    /** Runs every check of the whole registry; a check that throws counts as down. */
    public HealthReport check() {
        Map<String, Health> results = new TreeMap<>();
        checks.forEach((name, check) -> results.put(name, run(check)));
        boolean allUp = results.values().stream().allMatch(Health::isUp);
        return new HealthReport(allUp ? Health.Status.UP : Health.Status.DOWN, results);
    }

    private static Health run(Supplier<Health> check) {
        try {
            Health health = check.get();
            return health == null ? Health.down("the check gave no answer") : health;
        } catch (RuntimeException e) {
            return Health.down("the check failed: " + e);
        }
    }
}
