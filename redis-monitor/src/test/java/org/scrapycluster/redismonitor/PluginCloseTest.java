package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** A plugin whose close fails with an error of its own code (docs/extending.md): the rest of the monitor still closes. */
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
}
