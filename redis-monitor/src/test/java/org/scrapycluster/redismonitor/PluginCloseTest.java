package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * A plugin whose close fails, or never returns, or whose jobs outlast the stop (docs/extending.md): the rest of the
 * monitor still closes, and its last writes are made.
 */
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

    /**
     * A slow job in hand on each of the monitor's workers (scan and signal), which ignores the interrupt: before, the
     * workers were waited for up to 12 s each outside the stop's budget, which left the last writes no time, and the
     * heartbeat was not removed; now their waits come out of the budget before the reserve for those writes.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void slowJobsInHandDoNotUseUpTheTimeOfTheLastWrites(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "PLUGINS", "{" + BlockingPlugin.Factory.class.getName() + ": 50}");
             CapturedLog log = CapturedLog.start(RunningMonitor.class, Level.WARN)) {
            NodeIdentity node = NodeIdentity.create();
            MonitorFixture.Running monitor = fixture.startMonitor(node);
            String heartbeat = Keyspace.HEARTBEAT.fill("redis-monitor", node.toString());
            try {
                fixture.awaitPresent(heartbeat);
                // the second job is taken by whichever worker the first left free
                fixture.post("blocktest:app:" + MonitorFixture.unique("first"), "first");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> BlockingPlugin.HANDLING.getCount() == 1);
                fixture.post("blocktest:app:" + MonitorFixture.unique("second"), "second");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> BlockingPlugin.HANDLING.getCount() == 0);

                monitor.monitor().close();

                assertEquals(0, fixture.redis().sync().exists(heartbeat), "the heartbeat is removed");
                assertEquals(List.of(), log.lines().stream().filter(line -> line.contains("Not written at stop")).toList(),
                        "the lock's release, the heartbeat's removal and the last statistics are all written");
            } finally {
                BlockingPlugin.RELEASED.countDown();
            }
        }
    }
}
