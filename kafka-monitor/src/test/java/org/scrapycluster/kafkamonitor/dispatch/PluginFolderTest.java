package org.scrapycluster.kafkamonitor.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.plugin.PluginJar;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

/** A Kafka monitor plugin whose jar (class, schema and all) is only in a plugin folder handles its requests. */
class PluginFolderTest {

    @Test
    void aPluginFromTheFolderMatchesAndHandlesItsRequests(@TempDir Path work) throws Exception {
        Path folder = work.resolve("plugins");
        PluginJar.named("ping-plugin")
                .source("com.example.PingHandler", """
                        package com.example;
                        import com.fasterxml.jackson.databind.node.ObjectNode;
                        import org.scrapycluster.common.request.RequestSchema;
                        import org.scrapycluster.common.settings.Settings;
                        import org.scrapycluster.kafkamonitor.plugin.*;
                        public final class PingHandler implements KafkaMonitorPlugin {
                            public RequestSchema setup(Settings settings) {
                                return PluginSchemas.resource(PingHandler.class, "ping_schema.json");
                            }
                            public Handling handle(ObjectNode request) {
                                return Handling.accept("Pinged", new RedisEffect.SetKey("ping:" + request.get("uuid").asText(), "pong"));
                            }
                        }
                        """)
                .resource("com/example/ping_schema.json", """
                        {"type": "object", "properties": {"uuid": {"type": "string"}, "ping": {"type": "boolean"}},
                         "required": ["uuid", "ping"], "additionalProperties": false}
                        """)
                .writeTo(folder, "0.9");
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("PLUGINS", "{com.example.PingHandler: 500}", "PLUGIN_DIRS", folder.toString())));

        PluginSet plugins = PluginSet.load(settings);
        Match match = plugins.match(new Json(JsonLimits.from(settings)).readTree("{\"uuid\": \"u1\", \"ping\": true}"));

        Match.Matched matched = assertInstanceOf(Match.Matched.class, match);
        assertEquals("PingHandler", matched.plugin().plugin().name());
        assertNotSame(PluginSet.class.getClassLoader(), matched.plugin().plugin().getClass().getClassLoader());
        Handling handling = matched.plugin().plugin().handle(matched.request());
        assertEquals(List.of(new RedisEffect.SetKey("ping:u1", "pong")), assertInstanceOf(Handling.Accept.class, handling).effects());
    }
}
