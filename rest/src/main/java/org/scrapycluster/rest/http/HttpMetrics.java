package org.scrapycluster.rest.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The gateway's HTTP meters: {@code rest_requests_total{endpoint,status}} for every answer and
 * {@code rest_requests_refused_total{reason}} for every refusal ({@link Refusal#reason()}).
 */
public final class HttpMetrics {

    private final MeterRegistry registry;

    public HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Refusal refusal : Refusal.values()) {
            refusedCounter(refusal);
        }
    }

    /** Counts an answer of {@code endpoint} ({@code unknown} when no route took the request). */
    public void answered(String endpoint, int status) {
        Counter.builder("rest.requests").description("HTTP requests answered, by endpoint and status")
                .tag("endpoint", endpoint).tag("status", Integer.toString(status))
                .register(registry).increment();
    }

    /** Counts a refused request. */
    public void refused(Refusal refusal) {
        refusedCounter(refusal).increment();
    }

    private Counter refusedCounter(Refusal refusal) {
        return Counter.builder("rest.requests.refused").description("HTTP requests refused, by reason")
                .tag("reason", refusal.reason()).register(registry);
    }
}
