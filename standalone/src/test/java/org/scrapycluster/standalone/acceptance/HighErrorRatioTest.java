package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.scrapycluster.crawler.fetch.FetchError;
import org.scrapycluster.standalone.acceptance.CounterArithmetic.Increase;

/**
 * The {@code HighErrorRatio} alert of {@code deploy/monitoring/prometheus/alerts.yml} is the share of fetch attempts that
 * failed on the network or were answered 5xx (docs/operations.md, "Dashboards and alerts"): the crawler counts each attempt
 * once, as a {@code crawler_responses_total{status}} or as a {@code crawler_errors_total{kind}} of its fetch error, and
 * counts other failures in {@code crawler_errors_total} too.
 */
class HighErrorRatioTest {

    /** The fetch errors of a request that was never sent, or that the node itself stopped: no network failure. */
    private static final Set<FetchError> NOT_NETWORK = EnumSet.of(FetchError.FORBIDDEN_ADDRESS, FetchError.INVALID_REQUEST,
            FetchError.TOO_LARGE, FetchError.CANCELLED);
    /** The kinds of {@code crawler_errors_total} that are not a fetch's error: what the node made of a fetch, or its own failures. */
    private static final List<String> NOT_FETCH_ERRORS = List.of("gave_up", "redirect_limit", "spider", "middleware",
            "malformed_member", "processing", "unwritable_result", "kafka");

    @Test
    void aRequestGivenUpAfterItsRetriesCountsEachFailedAttemptOnce() throws IOException {
        assertEquals(0.5, ratio(responses("200", 3), errors("connect_refused", 3), errors("gave_up", 1)),
                "three answered attempts, three refused ones");
    }

    @Test
    void everyRetriedServerErrorIsAFailedAttempt() throws IOException {
        assertEquals(0.75, ratio(responses("200", 1), responses("500", 3)));
    }

    @Test
    void everyNetworkErrorIsAFailedAttempt() throws IOException {
        for (FetchError error : EnumSet.complementOf(EnumSet.copyOf(NOT_NETWORK))) {
            assertEquals(0.5, ratio(responses("200", 1), errors(kind(error), 1)), error.name());
        }
    }

    @Test
    void failuresThatAreNoFailedFetchAreLeftOut() throws IOException {
        List<Increase> increases = new ArrayList<>(List.of(responses("200", 4)));
        NOT_FETCH_ERRORS.forEach(kind -> increases.add(errors(kind, 1)));
        NOT_NETWORK.forEach(error -> increases.add(errors(kind(error), 1)));
        assertEquals(0.0, CounterArithmetic.value(MonitoringQueries.alertExpression("HighErrorRatio"), increases));
    }

    @Test
    void theArithmeticRefusesWhatItCannotRead() {
        List<Increase> none = List.of();
        assertEquals(2.5, CounterArithmetic.value("sum by (namespace) (rate(a[1m]) or rate(b[1m])) + 5 / (1 + 1) > 0.2", none));
        List<Increase> increases = List.of(Increase.of("a", "c", "d", 1), Increase.of("a", "c", "e", 3), Increase.of("b", "c", "d", 2),
                Increase.of("b", "f", "g", 4));
        assertEquals(1.25, CounterArithmetic.value("sum(rate(a{c=\"d\"}[1m]) or rate(b[1m])) / sum(rate(a[1m]))", increases),
                "b{c=\"d\"} has a{c=\"d\"}'s labels once rate() dropped the names: or leaves it out, as Prometheus does");
        assertThrows(IllegalArgumentException.class, () -> CounterArithmetic.value("sum(rate(a[1m]) or vector(0))", none));
        assertThrows(IllegalArgumentException.class, () -> CounterArithmetic.value("max(rate(a[1m])) > 1", none));
        assertThrows(IllegalArgumentException.class, () -> CounterArithmetic.value("sum(rate(a{b~\"c\"}[1m]))", none));
    }

    private static double ratio(Increase... increases) throws IOException {
        return CounterArithmetic.value(MonitoringQueries.alertExpression("HighErrorRatio"), Arrays.asList(increases));
    }

    private static Increase responses(String status, double attempts) {
        return Increase.of("crawler_responses_total", "status", status, attempts);
    }

    private static Increase errors(String kind, double count) {
        return Increase.of("crawler_errors_total", "kind", kind, count);
    }

    /** The kind a fetch error is counted as. */
    private static String kind(FetchError error) {
        return error.name().toLowerCase(Locale.ROOT);
    }
}
