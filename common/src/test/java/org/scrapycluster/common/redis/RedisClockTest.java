package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/** Redis's clock read through a host clock that is off: two hours fast, then right again. */
@ExtendWith(TestRedis.class)
class RedisClockTest {

    private final RedisConnection redis;

    RedisClockTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void aHostTwoHoursFastReadsRedissTimeOnceMeasuredAndIsToldSoOnce() {
        RedisClock fast = new RedisClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(2)));
        assertTrue(Duration.between(redis.serverTime(), fast.instant()).compareTo(Duration.ofMinutes(119)) > 0,
                "the host's own, unmeasured");

        try (CapturedLog logged = CapturedLog.start(RedisClock.class, Level.INFO)) {
            fast.measure(redis);
            fast.measure(redis);
            assertTrue(Duration.between(redis.serverTime(), fast.instant()).abs().compareTo(Duration.ofSeconds(1)) < 0,
                    "Redis's time: " + fast.instant() + " against " + redis.serverTime());
            assertTrue(Math.abs(fast.millis() - fast.instant().toEpochMilli()) < 1_000);
            assertEquals(1, logged.lines().size(), "said once: " + logged.lines());
            String said = logged.lines().getFirst();
            assertTrue(said.startsWith("WARN This host's clock is 7200 s ahead of Redis's"), said);
        }
    }

    @Test
    void followingMeasuresBeforeItReturnsSoThatTheFirstStampIsRedissTime() {
        try (RedisClock fast = new RedisClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(2)))) {
            fast.follow(redis);
            assertTrue(Duration.between(redis.serverTime(), fast.instant()).abs().compareTo(Duration.ofSeconds(1)) < 0,
                    "Redis's time: " + fast.instant() + " against " + redis.serverTime());
        }
    }

    @Test
    void aHostWhoseClockAgreesIsNotToldAnything() {
        RedisClock right = new RedisClock(Clock.systemUTC());
        try (CapturedLog logged = CapturedLog.start(RedisClock.class, Level.INFO)) {
            right.measure(redis);
            assertTrue(right.offset().abs().compareTo(Duration.ofSeconds(1)) < 0, right.offset().toString());
            assertEquals(List.of(), logged.lines());
        }
    }
}
