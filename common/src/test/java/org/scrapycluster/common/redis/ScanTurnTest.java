package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

@ExtendWith(TestRedis.class)
class ScanTurnTest {

    private final RedisConnection redis;
    private final String key = TestRedis.unique("turn") + ":scan_turn";
    private final ScanTurn one;
    private final ScanTurn other;

    ScanTurnTest(RedisConnection redis) {
        this.redis = redis;
        this.one = new ScanTurn(redis, key);
        this.other = new ScanTurn(redis, key);
    }

    @AfterEach
    void deleteKey() {
        redis.sync().del(key);
    }

    @Test
    void whoTakesTheTurnHoldsItForWhatItAskedAndNoOtherTakesItMeanwhile() {
        assertTrue(one.take(Duration.ofMinutes(1)));
        assertFalse(other.take(Duration.ofMinutes(1)));

        long ttl = redis.sync().pttl(key);
        assertTrue(ttl > 55_000 && ttl <= 60_000, "held for the minute asked: " + ttl);
        assertTrue(one.surelyHeld().compareTo(Duration.ofSeconds(55)) > 0, "surely its own: " + one.surelyHeld());
        assertEquals(Duration.ZERO, other.surelyHeld());
    }

    @Test
    void itsHolderTakesTheTurnAgainWhateverItsHoldHasLeftAndForWhatItAsksNow() {
        // a holder that waits out its quiet time may ask in the millisecond in which Redis still counts its key as set
        assertTrue(one.take(Duration.ofSeconds(1)));
        one.holdFor(Duration.ofMillis(100));

        assertTrue(one.take(Duration.ofMinutes(1)), "its own turn, before the quiet time has run out");
        assertFalse(other.take(Duration.ofSeconds(1)));
        long ttl = redis.sync().pttl(key);
        assertTrue(ttl > 55_000 && ttl <= 60_000, "held for the minute asked now: " + ttl);
    }

    @Test
    void aHoldLeavesATurnThatAnotherHasTakenSinceAsItIs() throws InterruptedException {
        assertTrue(one.take(Duration.ofMillis(20)));
        while (redis.sync().exists(key) == 1) {
            Thread.sleep(5); // the holder's scan outlasted its hold
        }
        assertTrue(other.take(Duration.ofSeconds(30)));

        one.holdFor(Duration.ofMinutes(10));

        long ttl = redis.sync().pttl(key);
        assertTrue(ttl > 25_000 && ttl <= 30_000, "the other's hold, not lengthened: " + ttl);
        assertEquals(Duration.ZERO, one.surelyHeld(), "the hold found the turn another's");
        assertFalse(one.take(Duration.ofSeconds(1)));
    }

    @Test
    void aTurnHeldForItsQuietTimeExpiresThenAndNotBefore() {
        one.take(Duration.ofSeconds(1));

        one.holdFor(Duration.ofMinutes(10));

        long ttl = redis.sync().pttl(key);
        assertTrue(ttl > 590_000 && ttl <= 600_000, "held for the quiet time from now: " + ttl);
        assertFalse(other.take(Duration.ofSeconds(1)));
        assertEquals(ttl, redis.sync().pttl(key), 1_000, "another's try leaves the hold as it is");
    }

    @Test
    void aKeyWithoutExpiryAtTheTurnsNameIsGivenTheHoldAskedSoTheTurnComesBack() {
        redis.sync().rpush(key, "written by hand");

        try (CapturedLog log = CapturedLog.start(ScanTurn.class, Level.WARN)) {
            assertFalse(one.take(Duration.ofSeconds(30)));
            assertFalse(other.take(Duration.ofSeconds(30)));

            assertEquals(1, log.events().size(), "said once: " + log.lines());
            assertTrue(log.lines().get(0).contains("no expiry"), log.lines().toString());
        }
        long ttl = redis.sync().pttl(key);
        assertTrue(ttl > 25_000 && ttl <= 30_000, "expires within the hold asked: " + ttl);

        redis.sync().del(key); // as when that hold has run out
        assertTrue(one.take(Duration.ofSeconds(30)));
    }
}
