package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RefusedKeysTest {

    private final RefusedKeys refused = new RefusedKeys(LoggerFactory.getLogger(RefusedKeysTest.class), "Testing");

    @Test
    void aReadRedisRefusesIsEmptyAndTheNextOneIsRead() {
        Optional<String> wrongType = refused.read("k", () -> {
            throw new RedisCommandExecutionException("WRONGTYPE Operation against a key holding the wrong kind of value");
        });
        assertTrue(wrongType.isEmpty());
        assertEquals(Optional.of("v"), refused.read("k", () -> "v"), "the key is read again once Redis answers");
        assertEquals(Optional.empty(), refused.read("k", () -> null), "a read giving nothing is empty too");
    }

    @Test
    void workSaysWhetherRedisAnswered() {
        assertTrue(refused.run("k", () -> { }));
        assertFalse(refused.run("k", () -> {
            throw new RedisCommandExecutionException("ERR hash value is not an integer");
        }));
    }

    @Test
    void anOutageIsNoRefusalAndIsThrown() {
        RedisCommandExecutionException loading = new RedisCommandExecutionException("LOADING Redis is loading the dataset in memory");
        assertSame(loading, assertThrows(RedisCommandExecutionException.class, () -> refused.run("k", () -> {
            throw loading;
        })));
    }

    @Test
    void theWorksOwnCheckedFailurePassesThrough() {
        Exception own = new Exception("not Redis");
        assertSame(own, assertThrows(Exception.class, () -> refused.run("k", () -> {
            throw own;
        })));
    }
}
