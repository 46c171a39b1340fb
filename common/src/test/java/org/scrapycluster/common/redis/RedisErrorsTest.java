package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisLoadingException;
import org.junit.jupiter.api.Test;

class RedisErrorsTest {

    private static RedisCommandExecutionException answered(String error) {
        return new RedisCommandExecutionException(error);
    }

    @Test
    void aKeyOfAnotherTypeOrAValueThatIsNoNumberIsARefusal() {
        assertTrue(RedisErrors.isRefusal(answered("WRONGTYPE Operation against a key holding the wrong kind of value")));
        assertTrue(RedisErrors.isRefusal(answered("ERR hash value is not an integer")));
        assertTrue(RedisErrors.isRefusal(answered("ERR user_script:12: Script attempted to access nonexistent global variable")));
    }

    @Test
    void whatRedisSaysOfItselfIsAnOutage() {
        for (String error : new String[] {"LOADING Redis is loading the dataset in memory", "OOM command not allowed when used memory > 'maxmemory'.",
                "READONLY You can't write against a read only replica.", "MASTERDOWN Link with MASTER is down",
                "MISCONF Redis is configured to save RDB snapshots", "ERR max number of clients reached"}) {
            assertFalse(RedisErrors.isRefusal(answered(error)), error);
        }
        assertFalse(RedisErrors.isRefusal(new RedisBusyException("BUSY Redis is busy running a script")));
        assertFalse(RedisErrors.isRefusal(new RedisLoadingException("LOADING")));
        assertFalse(RedisErrors.isRefusal(new RedisConnectionException("Connection refused")));
    }

    @Test
    void whatRedisSixSaysOfItselfFromInsideAScriptIsAnOutageToo() {
        for (String error : new String[] {
                "ERR Error running script (call to f_5d7e3c): @user_script:21: @user_script: 21: -OOM command not allowed",
                "@user_script: 73: -MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist",
                "ERR Error running script (call to f_5d7e3c): @user_script:9: @user_script: 9: -READONLY You can't write",
                "NOPERM this user has no permissions to run the 'evalsha' command"}) {
            assertFalse(RedisErrors.isRefusal(answered(error)), error);
        }
        assertTrue(RedisErrors.isRefusal(answered("ERR Error running script (call to f_5d7e3c): @user_script:4: WRONGTYPE "
                + "Operation against a key holding the wrong kind of value")), "a key of another type in a script refuses its request");
    }

    @Test
    void aReadAnsweredWrongTypeGivesWhatIsGivenInstead() {
        assertEquals("fallback", RedisErrors.unlessWrongType(() -> {
            throw answered("WRONGTYPE Key is not a valid HyperLogLog string value.");
        }, "fallback"));
        assertEquals("read", RedisErrors.unlessWrongType(() -> "read", "fallback"));
    }

    @Test
    void aReadFailingOtherwiseThrows() {
        RedisCommandExecutionException loading = new RedisLoadingException("LOADING Redis is loading the dataset in memory");
        assertSame(loading, assertThrows(RedisCommandExecutionException.class, () -> RedisErrors.unlessWrongType(() -> {
            throw loading;
        }, "fallback")));
        RedisCommandExecutionException notANumber = answered("ERR value is not an integer or out of range");
        assertSame(notANumber, assertThrows(RedisCommandExecutionException.class, () -> RedisErrors.unlessWrongType(() -> {
            throw notANumber;
        }, "fallback")), "only WRONGTYPE is read as a key of another type");
    }
}
