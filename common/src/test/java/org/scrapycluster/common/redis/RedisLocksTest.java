package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisCommandTimeoutException;
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
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-lock-hung"));
             RedisConnection hung = TestRedis.connect(server);
             RedisLocks locks = new RedisLocks(hung, Duration.ofSeconds(60));
             CapturedLog log = CapturedLog.start(RedisLock.class, Level.WARN)) {
            RedisLock held = locks.tryAcquire(job).orElseThrow();
            server.freeze();
            try {
                assertThrows(RedisCommandTimeoutException.class, () -> hung.sync().get("k"));
                held.close();
            } finally {
                server.thaw();
            }
            assertFalse(held.isHeld());
            assertEquals(1, hung.sync().exists("lock:" + job), "not released: its expiry frees it");
            assertEquals(List.of("WARN Redis is not answering; the lock lock:" + job + " is left to expire within PT1M"), log.lines());
        }
    }

    @Test
    void renewalsThatFailWhileRedisIsAwayAreLoggedOnceAnOutage() throws InterruptedException {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-lock-outage"));
             RedisConnection away = TestRedis.connect(server);
             RedisLocks locks = new RedisLocks(away, Duration.ofMillis(300));
             CapturedLog log = CapturedLog.start(RedisLock.class, Level.INFO)) {
            RedisLock held = locks.tryAcquire(job).orElseThrow();
            server.stop();
            Thread.sleep(1_000); // about five renewals, every 200 ms, all failing
            server.restart();
            // the restarted server has no data: the first renewal that reaches it finds the lock gone
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !held.isHeld());
            List<String> lines = log.lines();
            String renewing = "Renewing the lock lock:" + job + " (it expires PT0.3S after the last renewal that succeeds)";
            assertEquals(3, lines.size(), lines.toString());
            assertTrue(lines.get(0).startsWith("WARN " + renewing + " failed, Redis unavailable: "), lines.get(0));
            assertEquals(List.of("INFO " + renewing + " works again, Redis is back",
                    "WARN Lost the lock lock:" + job + ": it expired or another holder took it"), lines.subList(1, 3));
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
}
