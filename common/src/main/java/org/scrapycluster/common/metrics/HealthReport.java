package org.scrapycluster.common.metrics;

import java.util.Map;

/** The result of running every health check: UP when all of them are (or there are none). */
public record HealthReport(Health.Status status, Map<String, Health> checks) {

    public HealthReport {
        checks = Map.copyOf(checks);
    }

    public boolean isUp() {
        return status == Health.Status.UP;
    }
}
