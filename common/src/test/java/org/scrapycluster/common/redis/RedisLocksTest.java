package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.SetArgs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

@ExtendWith(TestRedis.class)
class RedisLocksTest {

    private final RedisConnection redis;
    private final String job = "info:" + TestRedis.unique("lock") + ":app1";

    RedisLocksTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void onlyOneHolderAtATime() {
        try (RedisLocks first = new RedisLocks(redis, Duration.ofSeconds(6));
             RedisLocks second = new RedisLocks(redis, Duration.ofSeconds(6))) {
            RedisLock held = first.tryAcquire(job).orElseThrow();
            assertEquals("lock:" + job, held.key());
            assertEquals(Optional.empty(), second.tryAcquire(job));
            held.close();
            assertFalse(held.isHeld());
            try (RedisLock next = second.tryAcquire(job).orElseThrow()) {
                assertTrue(next.isHeld());
            }
            assertEquals(0, redis.sync().exists("lock:" + job));
        }
    }

    /**
     * A take the caller gave up on waiting for, done by Redis once it answered again, leaves the lock with the caller's
     * token: a holder that asks with its own token each time takes it again, anyone else waits for its expiry.
     */
    @Test
    void aHolderAskingWithItsOwnTokenTakesAgainALockThatHoldsIt() {
        String mine = RedisLocks.newToken();
        redis.sync().set("lock:" + job, mine, SetArgs.Builder.px(6_000)); // the late take
        try (RedisLocks locks = new RedisLocks(redis, Duration.ofSeconds(6))) {
            assertEquals(Optional.empty(), locks.tryAcquire(job), "a holder with a new token each time waits");
            assertEquals(Optional.empty(), locks.tryAcquireAs(job, RedisLocks.newToken()), "another holder waits");
            try (RedisLock held = locks.tryAcquireAs(job, mine).orElseThrow()) {
                assertTrue(held.isHeld());
            }
            assertEquals(0, redis.sync().exists("lock:" + job), "released by its token");
            try (RedisLock free = locks.tryAcquireAs(job, mine).orElseThrow()) {
                assertEquals(mine, redis.sync().get("lock:" + job), "a free lock is taken too");
            }
        }
    }

    @Test
    void aHeldLockIsRenewedBeyondItsExpiry() throws InterruptedException {
        // renewed every 1.6 s, so a stall of the test machine up to 0.8 s does not lose it
        try (RedisLocks locks = new RedisLocks(redis, Duration.ofMillis(2_400));
             RedisLock held = locks.tryAcquire(job).orElseThrow()) {
            Thread.sleep(5_000);
            assertTrue(held.isHeld());
            assertEquals(Optional.empty(), locks.tryAcquire(job));
            Long ttl = redis.sync().pttl("lock:" + job);
            assertTrue(ttl > 0 && ttl <= 2_400, ttl.toString());
        }
    }

    @Test
    void aDeadHoldersLockExpiresAndCannotBeReleasedByIt() {
        RedisLocks dying = new RedisLocks(redis, Duration.ofMillis(500));
        RedisLock orphan = dying.tryAcquire(job).orElseThrow();
        dying.close();
        try (RedisLocks survivor = new RedisLocks(redis, Duration.ofSeconds(6))) {
            RedisLock taken = Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> survivor.tryAcquire(job), Optional::isPresent).orElseThrow();
            orphan.close();
            assertTrue(redis.sync().exists("lock:" + job) == 1, "the late release of the dead holder did not delete it");
            taken.close();
        }
    }

    @Test
    void aLockClosedWhileRedisIsNotAnsweringIsLeftToExpire() {
        try (OwnRedis own = OwnRedis.start("redis-lock-hung", Duration.ofSeconds(60), Level.WARN)) {
            RedisLock held = own.locks().tryAcquire(job).orElseThrow();
            own.server().freeze();
            try {
                assertThrows(RedisCommandTimeoutException.class, () -> own.redis().sync().get("k"));
                held.close();
            } finally {
                own.server().thaw();
            }
            assertFalse(held.isHeld());
            assertEquals(1, own.redis().sync().exists("lock:" + job), "not released: its expiry frees it");
            assertEquals(List.of("WARN Redis is not answering; the lock lock:" + job + " is left to expire within PT1M"),
                    own.log().lines());
        }
    }

    @Test
    void renewalsThatFailWhileRedisIsAwayAreLoggedOnceAnOutage() throws InterruptedException {
        try (OwnRedis own = OwnRedis.start("redis-lock-outage", Duration.ofMillis(300), Level.INFO)) {
            RedisLock held = own.locks().tryAcquire(job).orElseThrow();
            own.server().stop();
            Thread.sleep(1_000); // about five renewals, every 200 ms, all failing
            own.server().restart();
            assertFalse(held.isHeld(), "its expiry passed with no renewal taken");
            // the restarted server has no data: the first renewal that reaches it finds the lock gone
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> own.log().lines().size() == 3);
            List<String> lines = own.log().lines();
            String renewing = "Renewing the lock lock:" + job + " (it expires PT0.3S after the last renewal that succeeds)";
            assertEquals(3, lines.size(), lines.toString());
            assertTrue(lines.get(0).startsWith("WARN " + renewing + " failed, Redis unavailable: "), lines.get(0));
            assertEquals(List.of("INFO " + renewing + " works again, Redis is back",
                    "WARN Lost the lock lock:" + job + ": it expired or another holder took it"), lines.subList(1, 3));
        }
    }

    @Test
    void aLockIsNoLongerHeldOnceItsExpiryPassedWithoutARenewalTaken() throws InterruptedException {
        try (OwnRedis own = OwnRedis.start("redis-lock-paused", Duration.ofMillis(300), Level.ERROR)) {
            RedisLock held = own.locks().tryAcquire(job).orElseThrow();
            assertTrue(held.isHeld());
            own.server().freeze(); // the renewals wait for an answer, as after a pause of this process longer than the expiry
            try {
                Thread.sleep(600);
                assertFalse(held.isHeld(), "another holder may have it by now");
            } finally {
                own.server().thaw();
            }
        }
    }

    @Test
    void aHolderNoticesWhenItsLockWasTakenOver() {
        try (RedisLocks locks = new RedisLocks(redis, Duration.ofMillis(300));
             RedisLock held = locks.tryAcquire(job).orElseThrow()) {
            redis.sync().set("lock:" + job, "someone else");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !held.isHeld());
            assertEquals("someone else", redis.sync().get("lock:" + job));
        }
    }

    /** Locks on a redis-server of the test's own, which it may stop or freeze, and what {@link RedisLock} logs at {@code level}. */
    private record OwnRedis(EmbeddedRedis server, RedisConnection redis, RedisLocks locks, CapturedLog log)
            implements AutoCloseable {

        static OwnRedis start(String name, Duration expiry, Level level) {
            EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary(name));
            RedisConnection redis = TestRedis.connect(server);
            return new OwnRedis(server, redis, new RedisLocks(redis, expiry), CapturedLog.start(RedisLock.class, level));
        }

        @Override
        public void close() {
            log.close();
            locks.close();
            redis.close();
            server.close();
        }
    }
}
