package org.scrapycluster.common.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The result of running every health check: UP when all of them are (or there are none). */
public record HealthReport(Health.Status status, Map<String, Health> checks) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public HealthReport {
        checks = Map.copyOf(checks);
    }

    public boolean isUp() {
        return status == Health.Status.UP;
    }

    /** The HTTP status a health endpoint answers with: 200 when up, 503 when not. */
    public int httpStatus() {
        return isUp() ? 200 : 503;
    }

    /** The same report with every check's detail left empty: for callers who may see states but not addresses. */
    public HealthReport withoutDetails() {
        Map<String, Health> statesOnly = new LinkedHashMap<>();
        checks.forEach((name, health) -> statesOnly.put(name, new Health(health.status(), "")));
        return new HealthReport(status, statesOnly);
    }

    /** The checks that are down, by name, each with its detail: {@code redis-monitor.start: could not start: …; …}. */
    public String downChecks() {
        return new TreeMap<>(checks).entrySet().stream().filter(check -> !check.getValue().isUp())
                .map(check -> check.getValue().detail().isEmpty() ? check.getKey() : check.getKey() + ": " + check.getValue().detail())
                .collect(Collectors.joining("; "));
    }

    /** {@code {"status":"UP","checks":{"redis":{"status":"UP","detail":""}}}}, checks by name. */
    public String toJson() {
        Map<String, Object> byName = new TreeMap<>();
        checks.forEach((name, health) -> {
            Map<String, String> check = new LinkedHashMap<>(); // in this order in every process (Map.of's varies)
            check.put("status", health.status().name());
            check.put("detail", health.detail());
            byName.put(name, check);
        });
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status.name());
        body.put("checks", byName);
        try {
            return MAPPER.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a health report", e);
        }
    }
}
