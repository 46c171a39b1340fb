package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;

@ExtendWith(TestRedis.class)
class LuaScriptTest {

    private final RedisConnection redis;

    LuaScriptTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void librariesComeFirstAndTheDigestIsRedisOwn() {
        LuaScript script = LuaScript.load("renew", "clock");
        assertTrue(script.source().startsWith("-- The Redis server clock"), script.source());
        assertTrue(script.source().contains("server_clock().millis"));
        assertEquals(redis.sync().digest(script.source()), script.sha());
    }

    @Test
    void runsAgainAfterRedisForgotItsScripts() {
        LuaScript lock = LuaScript.load("lock");
        String key = Keyspace.lock(TestRedis.unique("lua"));
        redis.sync().set(key, "token");
        redis.sync().scriptFlush();
        Long renewed = lock.call(redis, ScriptOutputType.INTEGER, new String[] {key}, "token", "5000");
        assertEquals(1, renewed);
        assertTrue(redis.sync().scriptExists(lock.sha()).getFirst(), "EVAL cached it");
        Long released = lock.call(redis, ScriptOutputType.INTEGER, new String[] {key}, "token", "0");
        assertEquals(1, released);
        assertEquals(0, redis.sync().exists(key));
    }

    @Test
    void aMissingScriptIsAPackagingError() {
        assertThrows(IllegalStateException.class, () -> LuaScript.load("no-such-script"));
        assertThrows(IllegalStateException.class, () -> LuaScript.load("lock", "no-such-library"));
    }
}
