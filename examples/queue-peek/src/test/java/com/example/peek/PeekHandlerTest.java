package com.example.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.dispatch.Match;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.plugin.ActionHandler;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The handler as the Kafka monitor loads it: listed in PLUGINS beside the built-ins. */
class PeekHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PluginSet plugins = PluginSet.load(Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
            Map.of("PLUGINS", "{plugins.scraper_handler.ScraperHandler: 100, plugins.action_handler.ActionHandler: 200, "
                    + "com.example.peek.PeekHandler: 600}"))));

    @Test
    void aPeekRequestIsTheHandlersAndWritesItsJobWithTheDefaultCount() throws Exception {
        Match.Matched matched = assertInstanceOf(Match.Matched.class, plugins.match(json(
                "{\"action\": \"peek\", \"appid\": \"testapp\", \"uuid\": \"p1\", \"spiderid\": \"link\", \"domain\": \"Shop.Example\"}")));
        Handling.Accept accept = assertInstanceOf(Handling.Accept.class, matched.plugin().plugin().handle(matched.request()));
        assertEquals(List.of(new RedisEffect.SetJob("peek:link:shop.example:testapp:10", "p1")), accept.effects());
        assertEquals("Added peek request to Redis", accept.logMessage());
    }

    @Test
    void anInfoRequestStillGoesToTheActionHandler() throws Exception {
        Match.Matched matched = assertInstanceOf(Match.Matched.class, plugins.match(json(
                "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"i1\", \"spiderid\": \"link\"}")));
        assertInstanceOf(ActionHandler.class, matched.plugin().plugin());
    }

    @Test
    void aPeekOutsideTheSchemaIsRefusedWithTheSchemasWords() throws Exception {
        Match.Unmatched unmatched = assertInstanceOf(Match.Unmatched.class, plugins.match(json(
                "{\"action\": \"peek\", \"appid\": \"testapp\", \"uuid\": \"p1\", \"spiderid\": \"link\", \"domain\": \"shop.example\", "
                        + "\"count\": 1000}")));
        assertEquals("peek_schema", unmatched.closestSchema());
        assertEquals(1, unmatched.details().size(), unmatched.details().toString());
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
