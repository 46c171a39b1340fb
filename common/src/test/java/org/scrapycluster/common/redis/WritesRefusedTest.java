package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How the scripts tell Redis refusing every write (an outage, the whole call failed for the caller to wait out) from a
 * key refusing one request (lua/lib/errors.lua), in the words of Redis 7 and of Redis 6.2 and before.
 */
@ExtendWith(TestRedis.class)
class WritesRefusedTest {

    private static final LuaScript WRITES_REFUSED = LuaScript.load("writes_refused", "errors");

    private final RedisConnection redis;

    WritesRefusedTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void redisRefusingWritesIsToldInTheWordsOfEveryVersion() {
        for (String error : new String[] {"OOM command not allowed when used memory > 'maxmemory'. script: f_5d7e3c, on @user_script:73.",
                "@user_script: 73: -OOM command not allowed when used memory > 'maxmemory'.\r\n",
                "@user_script: 12: -MISCONF Redis is configured to save RDB snapshots\r\n",
                "@user_script: 9: -READONLY You can't write against a read only replica.\r\n",
                "NOREPLICAS Not enough good replicas to write."}) {
            assertEquals(1L, refused(error), error);
        }
    }

    @Test
    void aKeyRefusingARequestIsNotRedisRefusingWrites() {
        for (String error : new String[] {"WRONGTYPE Operation against a key holding the wrong kind of value",
                "@user_script: 40: -WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
                "ERR value is not an integer or out of range"}) {
            assertEquals(0L, refused(error), error);
        }
    }

    private long refused(String error) {
        return WRITES_REFUSED.<Long>call(redis, ScriptOutputType.INTEGER, new String[0], error);
    }
}
