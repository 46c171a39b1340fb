package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class ResultDeliveryTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ResultDelivery delivery = new ResultDelivery(new SchedulerInbox(), new CrawlerMetrics(registry, "link", "n1"),
            InstantSource.fixed(Instant.parse("2026-12-07T08:00:00Z")));

    @Test
    void anOutageIsSaidOnceAndItsEndOnce() {
        try (CapturedLog log = CapturedLog.start(ResultDelivery.class, Level.INFO)) {
            delivery.failed(new IllegalStateException("Expiring 3 record(s)"));
            delivery.failed(new IllegalStateException("Expiring 2 record(s)"));
            assertEquals(1.0, stalled());
            delivery.published();
            delivery.published();
            assertEquals(0.0, stalled());
            assertEquals(List.of("WARN Results cannot be published; fetching one request at a time until one is",
                    "INFO Results are published again; back to CONCURRENT_REQUESTS"), log.lines());
        }
    }

    @Test
    void pagesTheStopCutShortAreNoOutage() {
        try (CapturedLog log = CapturedLog.start(ResultDelivery.class, Level.INFO)) {
            delivery.nodeStopping();
            delivery.failed(new IllegalStateException("Producer is closed forcefully."));
            delivery.failed(new IllegalStateException("Producer is closed forcefully."));
            assertEquals(0.0, stalled());
            assertEquals(List.of("WARN Pages in flight at the stop cannot be published; their requests return to their queues once "
                    + "their leases expire (LEASE_SECONDS)"), log.lines());
        }
    }

    private double stalled() {
        return registry.get("crawler.publishing.stalled").gauge().value();
    }
}
