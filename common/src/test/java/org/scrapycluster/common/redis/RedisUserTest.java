package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.lettuce.core.AclCategory;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * A Redis whose default user is switched off, as a managed Redis with access control lists is: the services log in as
 * {@code REDIS_USERNAME} with {@code REDIS_PASSWORD} (docs/operations.md "A Redis user of its own"), and a wrong
 * password or no user is refused at the connection, saying why, never with the password.
 */
class RedisUserTest {

    private static final String USER = "crawler-node";
    private static final String PASSWORD = "user-secret";

    @Test
    void theServicesLogInAsTheirUserWithItsPassword() {
        try (EmbeddedRedis server = serverWithUsers("redis-user");
             RedisConnection redis = RedisConnection.open(TestRedis.endpointFromSettings(server.port(), Map.of("REDIS_USERNAME", USER, "REDIS_PASSWORD", PASSWORD)))) {
            assertEquals("OK", redis.sync().set("redis-user-test", "v"));
            assertEquals(List.of("v"), redis.sync().eval("return {redis.call('GET', KEYS[1])}", ScriptOutputType.MULTI,
                    "redis-user-test"));
            assertEquals(USER, redis.sync().aclWhoami());
            assertTrue(redis.isRedis6OrNewer(), "a user refused INFO is on Redis 6.0 or newer");
        }
    }

    @Test
    void aWrongPasswordOrNoUserIsRefusedSayingWhy() {
        try (EmbeddedRedis server = serverWithUsers("redis-user-refused")) {
            Refusals.assertRefused(TestRedis.endpointFromSettings(server.port(), Map.of("REDIS_USERNAME", USER, "REDIS_PASSWORD", "not-it")), "WRONGPASS", "not-it");
            Refusals.assertRefused(TestRedis.endpointFromSettings(server.port(), Map.of("REDIS_PASSWORD", PASSWORD)), "WRONGPASS", PASSWORD);
        }
    }

    /** A user made with {@code nopass} takes the empty password the connection sends without REDIS_PASSWORD. */
    @Test
    void aUserWithoutAPasswordNeedsNone() {
        try (EmbeddedRedis server = serverWithUsers("redis-user-nopass");
             RedisConnection redis = RedisConnection.open(TestRedis.endpointFromSettings(server.port(), Map.of("REDIS_USERNAME", "open-user")))) {
            assertEquals("open-user", redis.sync().aclWhoami());
        }
    }

    @Test
    void theUserIsNamedWhereTheEndpointIsLoggedAndABlankOneIsNone() {
        RedisEndpoint endpoint = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null,
                Map.of("REDIS_HOST", "redis.internal", "REDIS_USERNAME", USER, "REDIS_PASSWORD", PASSWORD), Map.of())));
        assertEquals("redis://" + USER + "@redis.internal:6379/0", endpoint.toString());
        RedisEndpoint sentinels = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null,
                Map.of("REDIS_SENTINELS", "s1.redis:26379", "REDIS_SENTINEL_MASTER", "main", "REDIS_USERNAME", USER), Map.of())));
        assertEquals("master main (user " + USER + ") via redis://s1.redis:26379/0", sentinels.toString());
        assertFalse(endpoint.toString().contains(PASSWORD));
        assertNull(new RedisEndpoint("h", 1, 0, " ", "pw", null, Duration.ofSeconds(1), List.of(), null, null, null).username());
    }

    /**
     * A Redis with the default user off, {@link #USER} with the rules operations.md gives (every key and channel, every
     * command but the dangerous ones, INFO among them), and {@code open-user} (nopass).
     */
    private static EmbeddedRedis serverWithUsers(String name) {
        EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary(name));
        try (RedisConnection admin = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            admin.sync().aclSetuser(USER, AclSetuserArgs.Builder.on().addPassword(PASSWORD).allKeys().allChannels()
                    .allCommands().removeCategory(AclCategory.DANGEROUS));
            admin.sync().aclSetuser("open-user", AclSetuserArgs.Builder.on().nopass().allKeys().allCommands());
            admin.sync().aclSetuser("default", AclSetuserArgs.Builder.off());
        }
        return server;
    }
}
