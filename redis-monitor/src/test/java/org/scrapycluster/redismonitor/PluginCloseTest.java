package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** A plugin whose close fails, or never returns (docs/extending.md): the rest of the monitor still closes. */
@ExtendWith(SharedStack.class)
class PluginCloseTest {

    @Test
    void aPluginWhoseCloseThrowsAnErrorDoesNotKeepTheOthersOpen(EmbeddedStack stack) {
        String plugins = "{" + ClosingPlugins.Recorded.class.getName() + ": 40, " + ClosingPlugins.Failing.class.getName() + ": 50}";
        try (MonitorFixture fixture = MonitorFixture.on(stack, "PLUGINS", plugins)) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> monitor.health().checkLive().checks().containsKey("scan-loop"));

            assertDoesNotThrow(monitor.monitor()::close);

            assertEquals(0, ClosingPlugins.RECORDED_CLOSED.getCount(), "the plugin closed after the failing one is closed");
        }
    }

    @Test
    void aPluginWhoseCloseNeverReturnsDoesNotHoldTheStop(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "PLUGINS", "{" + ClosingPlugins.Hanging.class.getName() + ": 50}")) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> monitor.health().check().checks().get("redis").isUp());

                // the bound only keeps a stop that never returns from hanging the build; the plugins' wait is far shorter
                assertTimeoutPreemptively(Duration.ofSeconds(60), monitor.monitor()::close, "the stop returns");

                assertEquals(0, ClosingPlugins.HANGING_CLOSING.getCount(), "the plugin was asked to close");
                assertFalse(monitor.health().check().checks().get("redis").isUp(),
                        "the monitor's Redis connection, closed after the plugins, is closed");
            } finally {
                ClosingPlugins.HANGING_RELEASED.countDown();
            }
        }
    }
}
