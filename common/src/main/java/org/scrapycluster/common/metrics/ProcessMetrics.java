package org.scrapycluster.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The one Prometheus registry of a process, with the JVM's own meters. Each service records
 * into a {@link #forService view} that tags its meters {@code service=<name>}, so the services
 * of a standalone JVM share one registry and one endpoint yet stay apart.
 */
public final class ProcessMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public ProcessMetrics() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
    }

    /** The registry the endpoint scrapes. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** A registry for {@code service}'s meters: every meter registered through it carries the tag service. */
    public MeterRegistry forService(String service) {
        CompositeMeterRegistry view = new CompositeMeterRegistry();
        view.config().commonTags("service", service);
        view.add(registry);
        return view;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
