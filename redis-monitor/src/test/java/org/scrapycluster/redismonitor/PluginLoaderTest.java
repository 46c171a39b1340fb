package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.redismonitor.job.PluginContext;

/** Reading {@code PLUGINS}: the original's defaults and ranks, disabling, user classes, and refusals. */
class PluginLoaderTest {

    @Test
    void theDefaultsRunInTheOriginalsRankOrder() {
        assertEquals(List.of("plugins.info_monitor.InfoMonitor", "plugins.stop_monitor.StopMonitor",
                "plugins.expire_monitor.ExpireMonitor", "plugins.stats_monitor.StatsMonitor",
                "plugins.zookeeper_monitor.ZookeeperMonitor"), names(plugins(null)));
        assertEquals(List.of(100L, 200L, 300L, 400L, 500L), PluginLoader.resolve(settings(null)).stream()
                .map(PluginLoader.PluginSpec::rank).toList());
    }

    @Test
    void nullDisablesAPluginAndAClassNameAddsOne() {
        assertEquals(List.of(InfoTestPlugin.Factory.class.getName(), "plugins.info_monitor.InfoMonitor", "plugins.stop_monitor.StopMonitor",
                "plugins.stats_monitor.StatsMonitor", "plugins.zookeeper_monitor.ZookeeperMonitor"),
                names(plugins("{plugins.expire_monitor.ExpireMonitor: null, " + InfoTestPlugin.Factory.class.getName() + ": 10}")));
    }

    @Test
    void aBuiltInIsDisabledOrReRankedByItsFactorysClassAndANullEntryThatMatchesNothingIsRefused() {
        String info = BuiltInPlugins.Info.class.getName();
        assertEquals(List.of("plugins.stop_monitor.StopMonitor", "plugins.expire_monitor.ExpireMonitor",
                "plugins.stats_monitor.StatsMonitor", "plugins.zookeeper_monitor.ZookeeperMonitor"),
                names(plugins("{" + info + ": null}")));
        assertEquals(List.of("plugins.stop_monitor.StopMonitor", "plugins.expire_monitor.ExpireMonitor", info,
                "plugins.stats_monitor.StatsMonitor", "plugins.zookeeper_monitor.ZookeeperMonitor"), names(plugins("{" + info + ": 350}")));
        assertRefused("{InfoMonitr: null}", "names 'InfoMonitr', but there are no Redis monitor plugins of that name; there are: ");
    }

    @Test
    void aRankWrittenWithASignIsTheNumber() {
        assertEquals(List.of(50L, 100L, 200L, 400L, 500L), PluginLoader.resolve(settings("{plugins.expire_monitor.ExpireMonitor: +50}"))
                .stream().map(PluginLoader.PluginSpec::rank).toList());
    }

    @Test
    void refusesWhatCannotRun() {
        assertRefused("{plugins.stop_monitor.StopMonitor: 100}", "gives the rank 100 to both plugins.info_monitor.InfoMonitor"
                + " and plugins.stop_monitor.StopMonitor");
        assertRefused("{com.example.Missing: 50}", "names com.example.Missing, which is neither one of the Redis monitor plugins");
        assertRefused("{java.lang.String: 50}", "names java.lang.String, which does not implement");
        assertRefused("{plugins.stop_monitor.StopMonitor: fast}", "gives plugins.stop_monitor.StopMonitor the rank 'fast'");
        assertRefused("{plugins.stop_monitor.StopMonitor: 1.5}", "the rank '1.5'; a rank is a whole number, or null to remove the entry");
    }

    @Test
    void aClassOfAnotherServiceIsRefusedAsSuchEvenAtARankTakenAndTheMessageSaysHowToScopeTheSetting() {
        assertRefused("{java.lang.StringBuilder: 500}", "names java.lang.StringBuilder, which does not implement "
                + "org.scrapycluster.redismonitor.job.JobPluginFactory; kafka-monitor and redis-monitor both read PLUGINS: "
                + "give one alone its value as kafka-monitor.PLUGINS or redis-monitor.PLUGINS");
    }

    @Test
    void aPluginThatCannotNameItsJobKeysIsAStartUpErrorNamingItAndThoseBuiltAreClosed() {
        List<String> closed = new ArrayList<>();
        List<PluginLoader.PluginSpec> specs = List.of(
                new PluginLoader.PluginSpec("first", 100, context -> new IdlePlugin("first", () -> "first:*:*", () -> {
                    closed.add("first");
                    throw new AssertionError("a bug in close");
                })),
                new PluginLoader.PluginSpec("broken", 200, context -> new IdlePlugin("broken", () -> {
                    throw new NoClassDefFoundError("com/example/Missing");
                }, () -> closed.add("broken"))));
        SettingsException refused = assertThrows(SettingsException.class,
                () -> PluginLoader.build(specs, new PluginContext(settings(null), null, Clock.systemUTC(), null)));
        assertTrue(refused.getMessage().contains("broken") && refused.getMessage().contains("com/example/Missing"), refused.getMessage());
        assertEquals(List.of("broken", "first"), closed, "every plugin built is closed, last first, though one's close throws");
        assertEquals(1, refused.getSuppressed().length, "the close's failure rides along with the start-up error");
    }

    @Test
    void aFactoryThatFailsToMakeItsPluginOrMakesNoneIsAStartUpErrorNamingItAndThoseBuiltAreClosed() {
        List<String> closed = new ArrayList<>();
        PluginLoader.PluginSpec first = new PluginLoader.PluginSpec("first", 100, context -> new IdlePlugin("first", () -> "first:*:*", () -> closed.add("first")));
        List<PluginLoader.PluginSpec> throwing = List.of(first, new PluginLoader.PluginSpec("com.example.Throwing", 200, context -> {
            throw new NoClassDefFoundError("com/example/Missing");
        }));
        List<PluginLoader.PluginSpec> making = List.of(first, new PluginLoader.PluginSpec("com.example.Nothing", 200, context -> null));

        SettingsException thrown = assertThrows(SettingsException.class,
                () -> PluginLoader.build(throwing, new PluginContext(settings(null), null, Clock.systemUTC(), null)));
        assertEquals("Setting PLUGINS (from the defaults) names com.example.Throwing, whose create() failed to make its plugin: "
                + ExtensionFailures.described(new NoClassDefFoundError("com/example/Missing")), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("build it against the API of this Scrapy Cluster"), thrown.getMessage());
        SettingsException none = assertThrows(SettingsException.class,
                () -> PluginLoader.build(making, new PluginContext(settings(null), null, Clock.systemUTC(), null)));
        assertEquals("Setting PLUGINS (from the defaults) names com.example.Nothing, whose create() returned no plugin (null)", none.getMessage());
        assertEquals(List.of("first", "first"), closed, "the plugin built before is closed each time");
    }

    @Test
    void twoPluginsWithOneNameAreAStartUpErrorAndThoseBuiltAreClosed() {
        List<String> closed = new ArrayList<>();
        List<PluginLoader.PluginSpec> specs = List.of(
                new PluginLoader.PluginSpec("com.example.First", 100, context -> new IdlePlugin("IdlePlugin", () -> "first:*:*", () -> closed.add("first"))),
                new PluginLoader.PluginSpec("com.example.Second", 200, context -> new IdlePlugin("IdlePlugin", () -> "second:*:*", () -> closed.add("second"))));

        SettingsException refused = assertThrows(SettingsException.class,
                () -> PluginLoader.build(specs, new PluginContext(settings(null), null, Clock.systemUTC(), null)));

        assertEquals("Setting PLUGINS (from the defaults) names both com.example.First and com.example.Second, and both plugins are "
                + "called 'IdlePlugin', the name their statistics and log lines go by; give one a name() of its own", refused.getMessage());
        assertEquals(List.of("second", "first"), closed);
    }

    /** A re-check walk's plugin of {@code timeout:*} started beside the expire job, which it would have robbed of jobs. */
    @Test
    void aPluginThatTakesABuiltInJobsKeysBesideItIsAStartUpErrorAndThoseBuiltAreClosed() {
        List<String> closed = new ArrayList<>();
        AtomicInteger asked = new AtomicInteger();
        List<PluginLoader.PluginSpec> specs = List.of(
                new PluginLoader.PluginSpec("plugins.expire_monitor.ExpireMonitor", 100, context -> new IdlePlugin("ExpireMonitor", () -> {
                    asked.incrementAndGet();
                    return Keyspace.TIMEOUT.glob();
                }, () -> closed.add("expire"))),
                new PluginLoader.PluginSpec("com.example.Timeouts", 200,
                        context -> new IdlePlugin("Timeouts", () -> "timeout:*", () -> closed.add("timeouts"))));

        SettingsException refused = assertThrows(SettingsException.class,
                () -> PluginLoader.build(specs, new PluginContext(settings(null), null, Clock.systemUTC(), null)));

        assertEquals("Setting PLUGINS (from the defaults) names plugins.expire_monitor.ExpireMonitor and com.example.Timeouts, whose "
                + "patterns both match job keys such as timeout:x:x:x: each of those jobs would go to whichever takes it first, and the "
                + "other would never see it; disable one of them (a null rank)", refused.getMessage());
        assertEquals(List.of("timeouts", "expire"), closed);
        assertEquals(1, asked.get(), "each plugin is asked for its glob once, as docs/extending.md says");
    }

    @Test
    void aPluginWhoseCloseHangsDoesNotHoldTheStartUpError() {
        CountDownLatch never = new CountDownLatch(1);
        List<PluginLoader.PluginSpec> specs = List.of(
                new PluginLoader.PluginSpec("stuck", 100, context -> new IdlePlugin("stuck", () -> "stuck:*:*", () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })),
                new PluginLoader.PluginSpec("broken", 200, context -> new IdlePlugin("broken", () -> null, () -> { })));

        SettingsException refused = assertThrows(SettingsException.class,
                () -> PluginLoader.build(specs, new PluginContext(settings(null), null, Clock.systemUTC(), null)));

        assertTrue(refused.getMessage().contains("broken"), refused.getMessage());
        assertEquals(1, never.getCount(), "the stuck close was left to finish alone");
    }

    private static void assertRefused(String plugins, String message) {
        SettingsException refused = assertThrows(SettingsException.class, () -> plugins(plugins));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }

    private static List<PluginLoader.PluginSpec> plugins(String value) {
        return PluginLoader.resolve(settings(value));
    }

    private static List<String> names(List<PluginLoader.PluginSpec> specs) {
        return specs.stream().map(PluginLoader.PluginSpec::name).toList();
    }

    private static Settings settings(String plugins) {
        return Settings.load("redis-monitor", new SettingsSources(null, Map.of(), plugins == null ? Map.of() : Map.of("PLUGINS", plugins)));
    }
}
