package org.scrapycluster.kafkamonitor.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.plugin.PluginJar;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

import ch.qos.logback.classic.Level;

/** A Kafka monitor plugin whose jar (class, schema and all) is only in a plugin folder handles its requests. */
class PluginFolderTest {

    @Test
    void aPluginFromTheFolderMatchesAndHandlesItsRequests(@TempDir Path work) throws Exception {
        Path folder = work.resolve("plugins");
        pingPlugin().writeTo(folder, "0.9");
        Settings settings = settings(folder);

        PluginSet plugins = PluginSet.load(settings);
        Match match = plugins.match(new Json(JsonLimits.from(settings)).readTree("{\"uuid\": \"u1\", \"ping\": true}"));

        Match.Matched matched = assertInstanceOf(Match.Matched.class, match);
        assertEquals("PingHandler", matched.plugin().plugin().name());
        assertNotSame(PluginSet.class.getClassLoader(), matched.plugin().plugin().getClass().getClassLoader());
        Handling handling = matched.plugin().plugin().handle(matched.request());
        assertEquals(List.of(new RedisEffect.SetKey("ping:u1", "pong")), assertInstanceOf(Handling.Accept.class, handling).effects());
    }

    /**
     * The jar a plugin's author ships with its libraries beside it: Jackson too, since the plugin reads its requests
     * with it. The monitor hands the plugin its own Jackson's {@code ObjectNode}, so the plugin must see that one.
     */
    @Test
    void aPluginWhoseFolderHoldsItsOwnJacksonHandlesTheMonitorsRequests(@TempDir Path work) throws Exception {
        Path folder = work.resolve("plugins");
        pingPlugin().writeTo(folder, "0.9");
        Path jackson = Path.of(ObjectNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(jackson, folder.resolve(jackson.getFileName()));
        Settings settings = settings(folder);

        PluginSet plugins = PluginSet.load(settings);
        Match.Matched matched = assertInstanceOf(Match.Matched.class,
                plugins.match(new Json(JsonLimits.from(settings)).readTree("{\"uuid\": \"u2\", \"ping\": true}")));
        Handling handling = matched.plugin().plugin().handle(matched.request());

        assertEquals(List.of(new RedisEffect.SetKey("ping:u2", "pong")), assertInstanceOf(Handling.Accept.class, handling).effects());
    }

    @Test
    void aBrokenPluginJarThatPluginsDoesNotNameIsNeverLoaded(@TempDir Path work) throws Exception {
        Path folder = work.resolve("plugins");
        pingPlugin().writeTo(folder, "0.9");
        brokenPlugin().writeTo(folder, "1");
        Settings settings = settings(folder);

        List<String> warnings;
        PluginSet plugins;
        try (CapturedLog log = CapturedLog.start(ExtensionLoader.class, Level.WARN)) {
            plugins = PluginSet.load(settings);
            warnings = log.lines();
        }

        assertTrue(plugins.plugins().stream().anyMatch(plugin -> plugin.plugin().name().equals("PingHandler")));
        assertEquals(List.of(), warnings, "PLUGINS names classes: no other plugin is loaded to find them");
    }

    @Test
    void aBrokenPluginJarThatPluginsNamesStopsTheStartUpNamingItsJarAndClass(@TempDir Path work) {
        Path folder = work.resolve("plugins");
        brokenPlugin().writeTo(folder, "1");
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("PLUGINS", "{com.example.BrokenHandler: 500}", "PLUGIN_DIRS", folder.toString())));

        SettingsException e = assertThrows(SettingsException.class, () -> PluginSet.load(settings));

        assertTrue(e.getMessage().contains("names com.example.BrokenHandler, which cannot be used: "
                + "com.example.BrokenHandler (broken-plugin.jar), listed as one of the Kafka monitor plugins, failed to construct: "
                + "java.lang.NoClassDefFoundError: org/example/missing/Client"), e.getMessage());
    }

    /** A plugin built against a client library its jar does not bundle. */
    private static PluginJar brokenPlugin() {
        return PluginJar.named("broken-plugin")
                .source("com.example.BrokenHandler", """
                        package com.example;
                        import com.fasterxml.jackson.databind.node.ObjectNode;
                        import org.scrapycluster.common.request.RequestSchema;
                        import org.scrapycluster.common.settings.Settings;
                        import org.scrapycluster.kafkamonitor.plugin.*;
                        public final class BrokenHandler implements KafkaMonitorPlugin {
                            private final org.example.missing.Client client = new org.example.missing.Client();
                            public RequestSchema setup(Settings settings) { return null; }
                            public Handling handle(ObjectNode request) { return null; }
                        }
                        """)
                .source("org.example.missing.Client", "package org.example.missing; public final class Client { }")
                .leaveOut("org.example.missing.Client")
                .service("org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin", "com.example.BrokenHandler");
    }

    private static Settings settings(Path folder) {
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("PLUGINS", "{com.example.PingHandler: 500}", "PLUGIN_DIRS", folder.toString())));
    }

    private static PluginJar pingPlugin() {
        return PluginJar.named("ping-plugin")
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
                        """);
    }
}
