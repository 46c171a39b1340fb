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
    void sampleLabelsAreTheLabelNamesOfEachSampleName() {
        assertEquals(Map.of("up_total", Set.of("a", "b"), "g", Set.of()), MonitoringQueries.sampleLabels(
                "# HELP up_total x\nup_total{a=\"b, c=\\\"d\\\"\",b=\"}\",} 1.0\ng 2\n"));
    }
}
