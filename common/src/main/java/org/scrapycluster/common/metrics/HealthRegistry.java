package org.scrapycluster.common.metrics;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The health checks of a process, by name ("redis", "kafka", "zookeeper", ...). A check must
 * answer at once from what its service already knows (connected or not), never by waiting on a
 * server. A {@link #scoped scoped} view, as each service in standalone gets, prefixes its names
 * with the service's ({@code kafka-monitor.redis}) and shares the checks with the whole.
 *
 * <p>Each check has a {@link Kind}, which says which endpoint runs it: {@code /health} runs the
 * dependency checks, {@code /health/ready} the dependency and readiness checks, {@code /health/live}
 * the liveness checks only, so that an orchestrator never restarts a process because Redis, Kafka
 * or ZooKeeper is away (docs/operations.md "Monitoring").
 *
 * <p>A registry made with a meter registry also exports each check as the gauge
 * {@code health_check{check,kind}}: 1 while it is up, 0 while it is down, for alert rules.
 */
public final class HealthRegistry {

    /** Which endpoints run a check. */
    public enum Kind {
        /** A server the service needs is reachable: {@code /health} and {@code /health/ready}. */
        DEPENDENCY,
        /** The service can take work (e.g. its consumer has partitions): {@code /health/ready} only. */
        READINESS,
        /** The process and its loops are alive: {@code /health/live} only. */
        LIVENESS
    }

    private record Check(Kind kind, Supplier<Health> supplier) {
    }

    private final ConcurrentSkipListMap<String, Check> checks;
    private final String prefix;
    private final MeterRegistry meters;

    private HealthRegistry(ConcurrentSkipListMap<String, Check> checks, String prefix, MeterRegistry meters) {
        this.checks = checks;
        this.prefix = prefix;
        this.meters = meters;
    }

    /** A registry whose checks are not exported as meters. */
    public HealthRegistry() {
        this(new ConcurrentSkipListMap<>(), "", null);
    }

    /** A registry that exports each check as the gauge {@code health_check{check,kind}} in {@code meters}. */
    public HealthRegistry(MeterRegistry meters) {
        this(new ConcurrentSkipListMap<>(), "", meters);
    }

    /** A view whose checks are named {@code <scope>.<name>} in this registry. */
    public HealthRegistry scoped(String scope) {
        return new HealthRegistry(checks, prefix + scope + ".", meters);
    }

    /** Adds or replaces the dependency check {@code name}. */
    public void register(String name, Supplier<Health> check) {
        register(name, Kind.DEPENDENCY, check);
    }

    /** Adds or replaces the check {@code name} of {@code kind}. */
    public void register(String name, Kind kind, Supplier<Health> check) {
        String fullName = prefix + name;
        // the gauge reads the check registered under the name when it is read: a check replaced keeps its gauge
        if (checks.put(fullName, new Check(kind, check)) == null && meters != null) {
            Gauge.builder("health.check", () -> {
                Check current = checks.get(fullName);
                return current == null ? Double.NaN : run(current.supplier()).isUp() ? 1 : 0;
            }).description("1 while the health check is up, 0 while it is down")
                    .tags("check", fullName, "kind", kind.name().toLowerCase(Locale.ROOT)).register(meters);
        }
    }

    /** Runs every dependency check of the whole registry ({@code /health}); a check that throws counts as down. */
    public HealthReport check() {
        return run(Set.of(Kind.DEPENDENCY));
    }

    /** Runs the dependency and readiness checks ({@code /health/ready}). */
    public HealthReport checkReady() {
        return run(Set.of(Kind.DEPENDENCY, Kind.READINESS));
    }

    /** Runs the liveness checks ({@code /health/live}); UP when there are none. */
    public HealthReport checkLive() {
        return run(Set.of(Kind.LIVENESS));
    }

    private HealthReport run(Set<Kind> kinds) {
        Map<String, Health> results = new TreeMap<>();
        checks.forEach((name, check) -> {
            if (kinds.contains(check.kind())) {
                results.put(name, run(check.supplier()));
            }
        });
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
