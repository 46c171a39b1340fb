package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.plugin.PluginJar;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;

/** A Redis monitor plugin whose jar is only in a plugin folder works with the monitor's Redis connection. */
@ExtendWith(SharedStack.class)
class PluginFolderTest {

    /**
     * The jar a plugin's author ships with its libraries beside it: Lettuce too, since the plugin talks to Redis
     * through it. The monitor hands the plugin its own Lettuce's commands, so the plugin must see that Lettuce.
     */
    @Test
    void aPluginWhoseFolderHoldsItsOwnLettuceUsesTheMonitorsRedisConnection(@TempDir Path work, EmbeddedStack stack) throws Exception {
        Path folder = work.resolve("plugins");
        pingPlugin().writeTo(folder, "0.9");
        Path lettuce = Path.of(RedisCommands.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(lettuce, folder.resolve(lettuce.getFileName()));
        Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("PLUGINS", "{com.example.PingMonitor: 600}", "PLUGIN_DIRS", folder.toString())));
        String key = "plugin-folder-test:ping";

        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            redis.sync().del(key);
            PluginLoader.PluginSpec spec = PluginLoader.resolve(settings).stream().filter(s -> s.name().equals("com.example.PingMonitor"))
                    .findFirst().orElseThrow();
            try (JobPlugin plugin = spec.builder().apply(new PluginContext(settings, redis, Clock.systemUTC(), new HealthRegistry()))) {
                plugin.handle(null);
            }
            assertEquals("pong", redis.sync().get(key));
        }
    }

    private static PluginJar pingPlugin() {
        return PluginJar.named("ping-plugin")
                .source("com.example.PingMonitor", """
                        package com.example;
                        import java.util.List;
                        import org.scrapycluster.redismonitor.job.*;
                        public final class PingMonitor implements JobPluginFactory {
                            public String name() { return "ping"; }
                            public JobPlugin create(PluginContext context) {
                                return new JobPlugin() {
                                    public String name() { return "PingMonitor"; }
                                    public String pattern() { return "ping:*"; }
                                    public List<Answer> handle(Job job) {
                                        context.redis().sync().set("plugin-folder-test:ping", "pong");
                                        return List.of();
                                    }
                                };
                            }
                        }
                        """)
                .service("org.scrapycluster.redismonitor.job.JobPluginFactory", "com.example.PingMonitor");
    }
}
