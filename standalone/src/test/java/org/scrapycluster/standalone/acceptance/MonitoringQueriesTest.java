package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void sampleNamesAreTheNamesBeforeTheLabels() {
        assertEquals(Set.of("up_total", "g"), MonitoringQueries.sampleNames("# HELP up_total x\nup_total{a=\"b c\"} 1.0\ng 2\n"));
    }
}
