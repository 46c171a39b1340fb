package org.scrapycluster.kafkamonitor.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.plugin.ActionHandler;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;
import org.scrapycluster.kafkamonitor.plugin.ScraperHandler;
import org.scrapycluster.kafkamonitor.plugin.StatsHandler;
import org.scrapycluster.kafkamonitor.testing.ClusterTestHandler;

/** Loading the plugins the PLUGINS setting lists (docs/compatibility.md §2.2, §10.1) and choosing one for a request (§2.3). */
class PluginSetTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDefaultPluginsLoadInRankOrderUnderTheOriginalsNames() {
        PluginSet plugins = PluginSet.load(Settings.defaults("kafka-monitor"));

        assertEquals(List.of("ScraperHandler", "ActionHandler", "StatsHandler", "ZookeeperHandler"),
                plugins.plugins().stream().map(RankedPlugin::name).toList());
        assertEquals(List.of(100L, 200L, 300L, 400L), plugins.plugins().stream().map(RankedPlugin::rank).toList());
        assertEquals(List.of("scraper", "action", "stats", "zookeeper"), plugins.plugins().stream().map(RankedPlugin::schemaName).toList());
        assertEquals("plugins.scraper_handler.ScraperHandler", plugins.plugins().getFirst().listedAs());
    }

    @Test
    void aNullRankDisablesAPluginAndRanksReorderThem() {
        PluginSet plugins = PluginSet.load(settings("{plugins.action_handler.ActionHandler: null, plugins.scraper_handler.ScraperHandler: 350}"));

        assertEquals(List.of("StatsHandler", "ScraperHandler", "ZookeeperHandler"),
                plugins.plugins().stream().map(RankedPlugin::name).toList());
    }

    /** The name the log line and {@code scrapy-cluster plugins} show, or the class: the user's entry replaces the default's. */
    @Test
    void aBuiltInIsDisabledOrReRankedByItsNameOrClass() {
        assertEquals(List.of("ScraperHandler", "StatsHandler", "ZookeeperHandler"),
                PluginSet.load(settings("{ActionHandler: null}")).plugins().stream().map(RankedPlugin::name).toList());
        PluginSet reRanked = PluginSet.load(settings("{ActionHandler: 250}"));
        assertEquals(List.of("ScraperHandler", "ActionHandler", "StatsHandler", "ZookeeperHandler"),
                reRanked.plugins().stream().map(RankedPlugin::name).toList());
        assertEquals(250L, reRanked.plugins().get(1).rank());
        assertEquals("ActionHandler", reRanked.plugins().get(1).listedAs());
        PluginSet byClass = PluginSet.load(settings("{" + StatsHandler.class.getName() + ": null}"));
        assertEquals(List.of("ScraperHandler", "ActionHandler", "ZookeeperHandler"),
                byClass.plugins().stream().map(RankedPlugin::name).toList());
    }

    @Test
    void twoEntriesOfTheUsersForOnePluginAreRefused() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{ActionHandler: 250, plugins.action_handler.ActionHandler: 200}")));
        assertEquals("Setting PLUGINS (from the command line) names " + ActionHandler.class.getName() + " twice, as "
                + "plugins.action_handler.ActionHandler and as ActionHandler; keep one of the two entries", e.getMessage());
    }

    @Test
    void aNullEntryThatMatchesNothingIsRefused() {
        SettingsException e = assertThrows(SettingsException.class, () -> PluginSet.load(settings("{ActionHandlr: null}")));
        assertTrue(e.getMessage().startsWith("Setting PLUGINS (from the command line) names 'ActionHandlr', but there are no Kafka monitor"
                + " plugins of that name; there are: "), e.getMessage());
    }

    @Test
    void twoPluginsWithOneRankAreRefused() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{plugins.stats_handler.StatsHandler: 100}")));
        assertTrue(e.getMessage().contains("gives the rank 100 to both plugins.scraper_handler.ScraperHandler and plugins.stats_handler.StatsHandler"),
                e.getMessage());
    }

    @Test
    void anUnknownClassIsRefused() {
        SettingsException e = assertThrows(SettingsException.class, () -> PluginSet.load(settings("{com.example.MissingHandler: 500}")));
        assertTrue(e.getMessage().startsWith("Setting PLUGINS (from the command line) names com.example.MissingHandler, which is neither one of the Kafka monitor plugins"),
                e.getMessage());
    }

    @Test
    void aClassThatIsNotAPluginIsRefused() {
        SettingsException e = assertThrows(SettingsException.class, () -> PluginSet.load(settings("{java.lang.StringBuilder: 500}")));
        assertTrue(e.getMessage().contains("does not implement org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin"), e.getMessage());
    }

    @Test
    void aNameOfAnotherServicesPluginIsRefusedAsSuchEvenAtARankTakenAndTheMessageSaysHowToScopeTheSetting() {
        String scoping = "; kafka-monitor and redis-monitor both read PLUGINS: give one alone its value as kafka-monitor.PLUGINS "
                + "or redis-monitor.PLUGINS";
        SettingsException named = assertThrows(SettingsException.class, () -> PluginSet.load(settings("{peek: 100}")));
        assertTrue(named.getMessage().startsWith("Setting PLUGINS (from the command line) names 'peek', but there are no Kafka monitor plugins")
                && named.getMessage().endsWith(scoping), named.getMessage());
        SettingsException typed = assertThrows(SettingsException.class, () -> PluginSet.load(settings("{java.lang.StringBuilder: 100}")));
        assertTrue(typed.getMessage().endsWith("does not implement org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin" + scoping),
                typed.getMessage());
    }

    @Test
    void aRankMustBeAWholeNumber() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{plugins.stats_handler.StatsHandler: first}")));
        assertTrue(e.getMessage().contains("gives plugins.stats_handler.StatsHandler the rank 'first'"), e.getMessage());
    }

    @Test
    void aRankWrittenWithASignIsTheNumber() {
        PluginSet plugins = PluginSet.load(settings("{plugins.stats_handler.StatsHandler: +50}"));
        assertEquals("StatsHandler", plugins.plugins().getFirst().name());
        assertEquals(50L, plugins.plugins().getFirst().rank());
    }

    @Test
    void aPluginWhoseSchemaIsMissingCannotStart() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{org.scrapycluster.kafkamonitor.testing.SchemalessHandler: 500}")));
        assertTrue(e.getMessage().contains("The schema schemaless_schema.json of the plugin org.scrapycluster.kafkamonitor.testing.SchemalessHandler is not on the class path"),
                e.getMessage());
    }

    @Test
    void twoPluginsWithOneNameAreRefused() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{org.scrapycluster.kafkamonitor.testing.StatsLikeHandler: 500}")));
        assertEquals("Setting PLUGINS (from the command line) names both plugins.stats_handler.StatsHandler and "
                + "org.scrapycluster.kafkamonitor.testing.StatsLikeHandler, and both plugins are called 'StatsHandler', the name their "
                + "statistics and log lines go by; give one a name() of its own", e.getMessage());
    }

    @Test
    void aPluginWhoseSetupFailsIsAStartUpErrorNamingIt() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> PluginSet.load(settings("{org.scrapycluster.kafkamonitor.testing.UnsettableHandler: 500}")));
        assertEquals("Setting PLUGINS (from the command line) names org.scrapycluster.kafkamonitor.testing.UnsettableHandler, which cannot be "
                + "set up: java.lang.IllegalStateException: cannot reach the licence server", e.getMessage());
        assertEquals("cannot reach the licence server", e.getCause().getMessage());
    }

    @Test
    void aUserPluginWithItsOwnSchemaIsLoadedByClassNameAndMatched() throws Exception {
        PluginSet plugins = PluginSet.load(settings("{" + ClusterTestHandler.class.getName() + ": 50}"));
        assertEquals("ClusterTestHandler", plugins.plugins().getFirst().name());

        Match match = plugins.match(JSON.readTree("{\"uuid\":\"mytestid\",\"test\":\"cluster\"}"));

        Match.Matched matched = assertInstanceOf(Match.Matched.class, match);
        assertEquals("cluster_test_schema", matched.plugin().schemaName());
        Handling.Accept accept = assertInstanceOf(Handling.Accept.class, matched.plugin().plugin().handle(matched.request()));
        assertEquals(List.of(new RedisEffect.SetKey("cluster:test:mytestid", "mytestid")), accept.effects());
    }

    @Test
    void theBuiltInsAlsoLoadByTheirJavaNames() {
        PluginSet plugins = PluginSet.load(settings("{plugins.scraper_handler.ScraperHandler: null, plugins.action_handler.ActionHandler: null,"
                + " " + ScraperHandler.class.getName() + ": 10, " + ActionHandler.class.getName() + ": 20}"));

        assertEquals(List.of("ScraperHandler", "ActionHandler", "StatsHandler", "ZookeeperHandler"),
                plugins.plugins().stream().map(RankedPlugin::name).toList());
    }

    @Test
    void theFirstMatchingSchemaByRankHandlesARequest() throws Exception {
        PluginSet plugins = PluginSet.load(Settings.defaults("kafka-monitor"));

        Match match = plugins.match(JSON.readTree("{\"url\":\"www.stuff.com\",\"crawlid\":\"1234\",\"appid\":\"testapp\"}"));
        assertEquals("ScraperHandler", assertInstanceOf(Match.Matched.class, match).plugin().name());
        match = plugins.match(JSON.readTree("{\"uuid\":\"blah\",\"crawlid\":\"1234\",\"appid\":\"testapp\",\"action\":\"info\",\"spiderid\":\"link\"}"));
        assertEquals("ActionHandler", assertInstanceOf(Match.Matched.class, match).plugin().name());
    }

    @Test
    void anUnmatchedRequestGetsTheViolationsOfTheSchemaItComesClosestTo() throws Exception {
        PluginSet plugins = PluginSet.load(Settings.defaults("kafka-monitor"));

        Match.Unmatched deep = assertInstanceOf(Match.Unmatched.class,
                plugins.match(JSON.readTree("{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"maxdepth\":5}")));
        assertEquals("scraper", deep.closestSchema());
        assertEquals(List.of("maxdepth: must be at most 3, was 5"), deep.details());

        Match.Unmatched info = assertInstanceOf(Match.Unmatched.class,
                plugins.match(JSON.readTree("{\"uuid\":\"u1\",\"appid\":\"testapp\",\"action\":\"info\"}")));
        assertEquals("action", info.closestSchema());
        assertEquals(List.of("spiderid: is required"), info.details());

        Match.Unmatched number = assertInstanceOf(Match.Unmatched.class, plugins.match(JSON.readTree("42")));
        assertEquals("scraper", number.closestSchema(), "no schema is closer than another: the first by rank");
        assertEquals(List.of("request: must be a JSON object, was 42"), number.details());
    }

    @Test
    void withEveryPluginDisabledNothingMatches() throws Exception {
        PluginSet plugins = PluginSet.load(settings("{plugins.scraper_handler.ScraperHandler: null, plugins.action_handler.ActionHandler: null,"
                + " plugins.stats_handler.StatsHandler: null, plugins.zookeeper_handler.ZookeeperHandler: null}"));

        Match.Unmatched none = assertInstanceOf(Match.Unmatched.class, plugins.match(JSON.readTree("{\"uuid\":\"u\",\"appid\":\"app\"}")));
        assertEquals("none", none.closestSchema());
        assertEquals(List.of("request: no request plugin is enabled (PLUGINS)"), none.details());
    }

    private static Settings settings(String plugins) {
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("PLUGINS", plugins)));
    }
}
