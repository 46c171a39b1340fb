package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class MonitoringQueriesTest {

    @Test
    void namesAreTheIdentifiersThatAreNotFunctionsKeywordsLabelsOrRanges() {
        assertEquals(Set.of("a_seconds_bucket"), MonitoringQueries.metricNames(
                "histogram_quantile(0.95, sum by (le, spider) (rate(a_seconds_bucket{status=~\"5..\", x='y'}[5m])))"));
        assertEquals(Set.of("b_total", "c"), MonitoringQueries.metricNames(
                "sum(rate(b_total[10m]) or vector(0)) / clamp_min(c, 1e-9) > 0.2 and on (job) c offset 5m"));
    }

    @Test
    void labelsAreThoseMatchedGroupedOrFilledInButTheTargetLabels() {
        assertEquals(Set.of("le", "spider", "status", "x", "node"), MonitoringQueries.labelNames(
                "histogram_quantile(0.95, sum by (le, spider) (rate(a_seconds_bucket{status=~\"5..\", x='y,z=w'}[5m])))"
                        + " and on (job, node) b", "{{spider}} {{ instance }}"));
        assertEquals(Set.of("check", "service"), MonitoringQueries.labelNames(
                "min by (job, instance) (health_check{check=~\".*redis\"}) == 0", "{summary={{ $labels.service }} at {{ $labels.instance }}}"));
    }

    @Test
    void aMeterIsDocumentedByItsNameOrAPrefixWithAStarWhateverItsSamplesAreCalled() {
        String section = "| `crawler_pages_total`, `crawler_fetch_latency_seconds` | crawler |\n"
                + "| `rest_feed_*` | REST |\n| `redis_monitor_queue_backlog{spider}` and `kafka_monitor_lag` |\n"
                + "Prose on the `crawler_*` meters lists none of them.\n";
        assertEquals(Set.of("crawler_enqueued_total", "rest_http_connections", "kafka_monitor_records_lag"),
                MonitoringQueries.undocumented(Set.of("crawler_pages_total", "crawler_fetch_latency_seconds_bucket",
                        "crawler_fetch_latency_seconds_max", "crawler_enqueued_total", "rest_feed_total", "rest_feed_waiting",
                        "rest_http_connections", "redis_monitor_queue_backlog", "kafka_monitor_records_lag", "jvm_threads_live_threads",
                        "cache_size"), section));
    }

    @Test
    void theMonitoringSectionOfTheOperationsPageIsRead() throws Exception {
        String section = MonitoringQueries.monitoringSection();
        assertEquals(true, section.startsWith("\n## Monitoring\n"));
        assertEquals(Set.of(), MonitoringQueries.undocumented(Set.of("redis_monitor_queue_backlog", "health_check"), section));
        assertEquals(Set.of("crawler_no_such_meter_total"),
                MonitoringQueries.undocumented(Set.of("crawler_no_such_meter_total"), section));
    }

    @Test
    void sampleLabelsAreTheLabelNamesOfEachSampleName() {
        assertEquals(Map.of("up_total", Set.of("a", "b"), "g", Set.of()), MonitoringQueries.sampleLabels(
                "# HELP up_total x\nup_total{a=\"b, c=\\\"d\\\"\",b=\"}\",} 1.0\ng 2\n"));
    }
}
