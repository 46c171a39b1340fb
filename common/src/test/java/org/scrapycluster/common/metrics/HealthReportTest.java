package org.scrapycluster.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The health answer's text: the same in every process, with or without its details. */
class HealthReportTest {

    @Test
    void checksAreWrittenByNameEachStatusThenDetail() {
        Map<String, Health> checks = new LinkedHashMap<>();
        checks.put("rest.redis", new Health(Health.Status.UP, "redis://127.0.0.1:6379/0"));
        checks.put("crawler.loop", new Health(Health.Status.DOWN, "ended"));
        HealthReport report = new HealthReport(Health.Status.DOWN, checks);

        assertEquals("{\"status\":\"DOWN\",\"checks\":{\"crawler.loop\":{\"status\":\"DOWN\",\"detail\":\"ended\"},"
                + "\"rest.redis\":{\"status\":\"UP\",\"detail\":\"redis://127.0.0.1:6379/0\"}}}", report.toJson());
        assertEquals("{\"status\":\"DOWN\",\"checks\":{\"crawler.loop\":{\"status\":\"DOWN\",\"detail\":\"\"},"
                + "\"rest.redis\":{\"status\":\"UP\",\"detail\":\"\"}}}", report.withoutDetails().toJson());
    }

    @Test
    void theChecksDownAreNamedInOrderWithTheirDetailWhenTheyHaveOne() {
        Map<String, Health> checks = new LinkedHashMap<>();
        checks.put("rest.redis", Health.up("redis://127.0.0.1:6379/0"));
        checks.put("redis-monitor.start", Health.down("could not start: PLUGINS names Broken"));
        checks.put("crawler.loop", Health.down(""));
        assertEquals("crawler.loop; redis-monitor.start: could not start: PLUGINS names Broken",
                new HealthReport(Health.Status.DOWN, checks).downChecks());
    }
}
