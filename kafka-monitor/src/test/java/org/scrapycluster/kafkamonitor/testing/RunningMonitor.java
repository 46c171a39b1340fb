package org.scrapycluster.kafkamonitor.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.search.Search;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.intake.BatchListener;
import org.scrapycluster.kafkamonitor.intake.KafkaMonitor;

/** A Kafka monitor running in this JVM in a host of its own (no metrics endpoint), as a service runs. */
public final class RunningMonitor implements AutoCloseable {

    private final ServiceHost host;
    private final ServiceContext context;
    private final KafkaMonitor monitor;

    private RunningMonitor(ServiceHost host, ServiceContext context, KafkaMonitor monitor) {
        this.host = host;
        this.context = context;
        this.monitor = monitor;
    }

    public static RunningMonitor start(Settings settings) {
        return start(settings, BatchListener.NONE);
    }

    public static RunningMonitor start(Settings settings, BatchListener listener) {
        ServiceHost host = ServiceHost.start(settings);
        ServiceContext context = host.context(settings);
        KafkaMonitor monitor = new KafkaMonitor(context, listener);
        host.run(monitor);
        return new RunningMonitor(host, context, monitor);
    }

    public KafkaMonitor monitor() {
        return monitor;
    }

    /** The value of a counter of this monitor in the process's registry, 0 when it was never counted. */
    public double counter(String name, String... tags) {
        Search search = context.prometheus().find(name).tag("service", "kafka-monitor").tags(tags);
        Counter counter = search.counter();
        return counter == null ? 0 : counter.count();
    }

    /** The highest value of the gauges of this monitor named {@code name}, as {@code max} in a query takes it; NaN when none has one. */
    public double highestGauge(String name) {
        return context.prometheus().find(name).tag("service", "kafka-monitor").gauges().stream()
                .mapToDouble(Gauge::value).filter(value -> !Double.isNaN(value)).max().orElse(Double.NaN);
    }

    /** The HTTP status of {@code path} (e.g. {@code /health/ready}) on the metrics endpoint, which the settings must turn on. */
    public int httpStatus(String path) throws IOException, InterruptedException {
        int port = host.metricsAddress().orElseThrow(() -> new IllegalStateException("no metrics endpoint: set METRICS_PORT")).getPort();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /** The health checks of the process. */
    public HealthReport health() {
        return context.health().check();
    }

    /** Waits up to a minute for the monitor to be healthy (connected to Redis and Kafka). */
    public RunningMonitor awaitHealthy() {
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> health().status().name().equals("UP"));
        return this;
    }

    @Override
    public void close() {
        host.close();
    }
}
