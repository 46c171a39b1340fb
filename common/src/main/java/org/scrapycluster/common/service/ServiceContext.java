package org.scrapycluster.common.service;

import java.time.Clock;

import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * What a service is given to run: its settings, a meter registry whose meters carry the tag
 * {@code service=<name>}, the process's whole Prometheus registry (for a service that serves
 * {@code /metrics} on its own port, as the REST gateway does), the health registry to add its
 * checks to, the identity of this node and the clock to read time from. In standalone, several
 * contexts share one registry, one health endpoint and one node identity.
 */
public record ServiceContext(Settings settings, MeterRegistry meters, PrometheusMeterRegistry prometheus,
        HealthRegistry health, NodeIdentity node, Clock clock) {

    /** The service's name: the name of its settings. */
    public String service() {
        return settings.service();
    }
}
