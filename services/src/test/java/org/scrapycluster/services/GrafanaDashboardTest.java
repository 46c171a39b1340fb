package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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

    /**
     * One Prometheus may watch several clusters (and other applications, with a {@code health_check} of their own): every
     * series a panel reads is of the namespaces the dashboard's variable chooses, all of them by default.
     */
    @Test
    void everyPanelReadsTheNamespacesChosen() {
        Pattern unscoped = Pattern.compile("\\b(crawler|redis_monitor|kafka_monitor|lettuce|health)_[a-z_]+\\b"
                + "(?!\\{namespace=~\"\\$namespace\")");
        for (Map<String, Object> panel : panels()) {
            for (Map<String, Object> target : targets(panel)) {
                String expression = String.valueOf(target.get("expr"));
                assertFalse(unscoped.matcher(expression).find(), panel.get("title") + ": " + expression);
            }
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> variables = (List<Map<String, Object>>) ((Map<String, Object>) RepositoryFiles.yamlMap(DASHBOARD)
                .get("templating")).get("list");
        assertEquals(List.of("namespace"), variables.stream().map(variable -> variable.get("name")).toList());
        assertEquals(".*", variables.getFirst().get("allValue"), "All matches series without a namespace too");
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
