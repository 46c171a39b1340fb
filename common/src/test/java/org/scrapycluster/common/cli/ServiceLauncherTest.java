package org.scrapycluster.common.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

class ServiceLauncherTest {

    private static final Duration GRACE = Duration.ofSeconds(10);

    @Test
    void runsTheServiceUntilTheThreadIsInterruptedThenClosesIt() throws Exception {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_PORT", "-1", "LOG_LEVEL", "WARNING")));
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger status = new AtomicInteger(-1);
        Thread launcher = Thread.ofPlatform().start(() -> status.set(ServiceLauncher.run(settings, new Recording(events, false), GRACE)));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> events.contains("start kafka-monitor"));
        launcher.interrupt();
        launcher.join(Duration.ofSeconds(30));

        assertFalse(launcher.isAlive());
        assertEquals(0, status.get());
        assertEquals(List.of("check kafka-monitor", "create kafka-monitor", "start kafka-monitor", "close kafka-monitor"),
                events);
    }

    @Test
    @Timeout(30) // a launcher that did not check would run the service until interrupted
    void settingsTheServiceRefusesStopItBeforeTheMetricsEndpointListens() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_HOST", "127.0.0.1", "METRICS_PORT", String.valueOf(port), "LOG_LEVEL", "WARNING")));
        List<String> events = new CopyOnWriteArrayList<>();
        SettingsException refused = assertThrows(SettingsException.class,
                () -> ServiceLauncher.run(settings, new Recording(events, true), GRACE));

        assertEquals("Setting PLUGINS: refused by the test", refused.getMessage());
        assertEquals(List.of("check kafka-monitor"), events);
        // nothing was bound: the port is still free
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(again.isBound());
        }
    }

    /** A factory whose service records its life, and whose check refuses the settings when it {@code refuses}. */
    private record Recording(List<String> events, boolean refuses) implements ServiceFactory {

        @Override
        public String name() {
            return "kafka-monitor";
        }

        @Override
        public void check(Settings settings) {
            events.add("check " + settings.service());
            if (refuses) {
                throw new SettingsException("Setting PLUGINS: refused by the test");
            }
        }

        @Override
        public Service create(ServiceContext context) {
            events.add("create " + context.service());
            return new Service() {
                @Override
                public String name() {
                    return context.service();
                }

                @Override
                public void start() {
                    events.add("start " + name());
                }

                @Override
                public void close() {
                    events.add("close " + name());
                }
            };
        }
    }
}
