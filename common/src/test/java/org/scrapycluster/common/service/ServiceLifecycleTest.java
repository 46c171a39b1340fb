package org.scrapycluster.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

class ServiceLifecycleTest {

    @Test
    void nodeIdentityHasAHostnameAndTheLast12HexOfAUuid() {
        NodeIdentity node = NodeIdentity.create();
        assertFalse(node.hostname().isBlank());
        assertTrue(node.uuid12().matches("[0-9a-f]{12}"), node.uuid12());
        assertNotEquals(node.uuid12(), NodeIdentity.create().uuid12());
        assertEquals(node.hostname() + ":" + node.uuid12(), node.toString());
    }

    @Test
    void backoffDoublesFromHalfASecondUpToTenSecondsWithJitter() {
        Backoff lowest = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), fixed(0));
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            waits.add(lowest.nextDelay().toMillis());
        }
        assertEquals(List.of(500L, 1000L, 2000L, 4000L, 5000L, 5000L, 5000L), waits, "the lowest draw is half of each step");

        Backoff highest = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), fixed(Long.MAX_VALUE));
        for (int i = 0; i < 6; i++) {
            highest.nextDelay();
        }
        assertEquals(Duration.ofSeconds(10), highest.nextDelay());
        assertEquals(7, highest.attempts());
        highest.reset();
        assertEquals(Duration.ofSeconds(1), highest.nextDelay());
    }

    @Test
    void aPauseEndsWhenTheThreadIsInterrupted() throws Exception {
        Backoff backoff = new Backoff(Duration.ofSeconds(30), Duration.ofSeconds(60), RandomGenerator.getDefault());
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiting = Thread.ofPlatform().start(() -> {
            try {
                backoff.pause();
            } catch (InterruptedException e) {
                outcome.set(e);
            }
        });
        waiting.interrupt();
        waiting.join(Duration.ofSeconds(20));
        assertTrue(outcome.get() instanceof InterruptedException);
    }

    @Test
    void theHostStartsServicesWithTheirContextInOrderAndStopsThemTogether() throws Exception {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_PORT", "0", "METRICS_HOST", "127.0.0.1")));
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch stopping = new CountDownLatch(2);
        try (ServiceHost host = ServiceHost.start(settings)) {
            ServiceContext first = host.context(settings);
            ServiceContext second = host.context(settings, "kafka-monitor-2");
            assertEquals(first.node(), host.context(settings, "kafka-monitor").node(), "one node for the services of a process");
            assertEquals(first.node().hostname(), second.node().hostname());
            assertNotEquals(first.node().uuid12(), second.node().uuid12(), "a second instance of a service is a node of its own");
            host.run(new Recording("first", first, events, stopping));
            host.run(new Recording("second", second, events, stopping));
            int port = host.metricsAddress().orElseThrow().getPort();
            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
                assertTrue(health.body().contains("\"kafka-monitor.first\""), health.body());
                assertTrue(health.body().contains("\"kafka-monitor-2.second\""), health.body());
                String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                assertTrue(metrics.contains("recording_starts_total{service=\"kafka-monitor\"} 2.0"), metrics);
                assertTrue(host.context(settings).prometheus().scrape().contains("recording_starts_total"),
                        "a service can scrape the whole registry itself");
            }
        }
        assertEquals(List.of("start first", "start second"), events.subList(0, 2));
        assertEquals(Set.of("close first, with the other", "close second, with the other"), Set.copyOf(events.subList(2, events.size())),
                "each service's stop began while the other's was under way");
    }

    @Test
    void aClosedSignalRemovesItsHookAndAnInterruptEndsTheWait() throws Exception {
        ShutdownSignal signal = ShutdownSignal.install(Duration.ofSeconds(1));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, signal::await);
        signal.close();
        assertFalse(ShutdownSignal.jvmIsShuttingDown());
    }

    private static RandomGenerator fixed(long draw) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return draw;
            }

            @Override
            public long nextLong(long bound) {
                return Math.min(draw, bound - 1);
            }
        };
    }

    /** A service that records its life, and whether its stop met the other services' that count {@code stopping} down. */
    private record Recording(String name, ServiceContext context, List<String> events, CountDownLatch stopping) implements Service {

        @Override
        public void start() {
            context.health().register(name, Health::up);
            context.meters().counter("recording.starts").increment();
            events.add("start " + name);
        }

        @Override
        public void close() {
            stopping.countDown();
            try {
                events.add("close " + name + (stopping.await(10, TimeUnit.SECONDS) ? ", with the other" : ", alone"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
