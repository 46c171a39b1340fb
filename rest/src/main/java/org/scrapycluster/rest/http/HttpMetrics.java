package org.scrapycluster.rest.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The gateway's HTTP meters: {@code rest_requests_total{endpoint,status}} for every answer,
 * {@code rest_request_duration_seconds{endpoint}} for how long each took, from its head read to its answer made (a
 * request that waits for its answer included), in buckets from 5 ms to 30 s, and
 * {@code rest_requests_refused_total{reason}} for every refusal ({@link Refusal#reason()}).
 */
public final class HttpMetrics {

    /** The buckets' upper bounds: a quick endpoint's milliseconds up to a long wait for an answer. */
    private static final Duration[] BUCKETS = Stream.of(5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000)
            .map(Duration::ofMillis).toArray(Duration[]::new);

    private final MeterRegistry registry;

    public HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Refusal refusal : Refusal.values()) {
            refusedCounter(refusal);
        }
    }

    /** Counts an answer of {@code endpoint} ({@code unknown} when no route took the request), made {@code nanos} after its head. */
    public void answered(String endpoint, int status, long nanos) {
        Counter.builder("rest.requests").description("HTTP requests answered, by endpoint and status")
                .tag("endpoint", endpoint).tag("status", Integer.toString(status))
                .register(registry).increment();
        Timer.builder("rest.request.duration").description("How long HTTP requests took to answer, by endpoint")
                .tag("endpoint", endpoint).serviceLevelObjectives(BUCKETS)
                .register(registry).record(nanos, TimeUnit.NANOSECONDS);
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
