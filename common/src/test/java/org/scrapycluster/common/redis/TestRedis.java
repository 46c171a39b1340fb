package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CommandStats;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Gives tests a {@link RedisConnection} to the shared stack's Redis (as a constructor or method
 * parameter, closed when the test class is done), plus connections to private servers and unique
 * names.
 */
public final class TestRedis implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TestRedis.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisConnection.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", SharedStack.stack(context).redisPort()));
        context.getStore(NAMESPACE).put(UUID.randomUUID(), redis);
        return redis;
    }

    /** A connection to a private Redis, with a short timeout for outage tests. */
    public static RedisConnection connect(EmbeddedRedis redis) {
        return RedisConnection.open(new RedisEndpoint(redis.host(), redis.port(), 0, null, false, Duration.ofSeconds(2)));
    }

    /**
     * The endpoint a crawler's settings name for a Redis on 127.0.0.1:{@code port}, with {@code values} set beside it
     * (credentials, TLS) and a 2 s timeout: the endpoint as a service makes it, its checks of those values included.
     */
    public static RedisEndpoint endpointFromSettings(int port, Map<String, String> values) {
        Map<String, String> settings = new HashMap<>(values);
        settings.put("REDIS_HOST", "127.0.0.1");
        settings.put("REDIS_PORT", Integer.toString(port));
        settings.put("REDIS_SOCKET_TIMEOUT", "2");
        return RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, settings, Map.of())));
    }

    /** A name no other test uses, free of ':' (spider ids, key prefixes). */
    public static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** The {@code SCAN} calls {@code redis} has served since its statistics were last reset ({@code INFO commandstats}). */
    public static long scanCalls(RedisConnection redis) {
        return CommandStats.calls(redis.sync().info("commandstats"), "scan");
    }
}
