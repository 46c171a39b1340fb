package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard of deploy/monitoring/ (docs/operations.md, "Dashboards and alerts"), read as Grafana
 * reads its panels. What its queries name is checked against a running cluster by standalone's
 * {@code MonitoringNamesAcceptanceTest}.
 */
class GrafanaDashboardTest {

    private static final String DASHBOARD = "deploy/monitoring/grafana/dashboards/scrapy-cluster.json";

    /**
     * A table lists the series as they are now, one row each ("Largest domain queues", "Health checks down"). A
     * range query gives the table a frame per series, of which it shows one at a time, over time.
     */
    @Test
    void tablesQueryTheCurrentValueOfEverySeriesAsOneTable() {
        List<Map<String, Object>> tables = panels().stream().filter(p -> "table".equals(p.get("type"))).toList();
        assertFalse(tables.isEmpty());
        for (Map<String, Object> table : tables) {
            for (Map<String, Object> target : targets(table)) {
                assertEquals(true, target.get("instant"), table.get("title") + " " + target.get("expr"));
                assertEquals("table", target.get("format"), table.get("title") + " " + target.get("expr"));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> panels() {
        return (List<Map<String, Object>>) RepositoryFiles.yamlMap(DASHBOARD).get("panels");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> targets(Map<String, Object> panel) {
        return (List<Map<String, Object>>) panel.get("targets");
    }
}
