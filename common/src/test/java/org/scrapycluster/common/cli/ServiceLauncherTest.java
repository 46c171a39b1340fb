package org.scrapycluster.common.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

class ServiceLauncherTest {

    @Test
    void runsTheServiceUntilTheThreadIsInterruptedThenClosesIt() throws Exception {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_PORT", "-1", "LOG_LEVEL", "WARNING")));
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger status = new AtomicInteger(-1);
        Thread launcher = Thread.ofPlatform().start(() -> status.set(ServiceLauncher.run(settings, new Recording(events))));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> events.contains("start kafka-monitor"));
        launcher.interrupt();
        launcher.join(Duration.ofSeconds(30));

        assertFalse(launcher.isAlive());
        assertEquals(0, status.get());
        assertEquals(List.of("create kafka-monitor", "start kafka-monitor", "close kafka-monitor"), events);
    }

    /** A factory whose service records its life. */
    private record Recording(List<String> events) implements ServiceFactory {

        @Override
        public String name() {
            return "kafka-monitor";
        }

        /** Not asked: run alone, a service refuses its settings as it is made and started. */
        @Override
        public void check(Settings settings) {
            events.add("check " + settings.service());
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
