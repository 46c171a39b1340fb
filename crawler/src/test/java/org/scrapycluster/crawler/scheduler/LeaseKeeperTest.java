package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import io.lettuce.core.RedisCommandTimeoutException;
import org.awaitility.Awaitility;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.ManualClock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * When leases are renewed, lost and handed back, with the keeper's clock moved by hand and renewal run by the
 * test (never by the keeper's thread), against a private redis-server.
 */
class LeaseKeeperTest {

    private static final Duration LEASE = Duration.ofSeconds(90);

    private static final RedisConnection redis = PrivateRedis.connection();

    private final ManualClock clock = new ManualClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final String spider = "keeper" + System.nanoTime();
    /** The retries the keeper asks for, which a test runs itself ({@link #retryAfter}). */
    private final BlockingQueue<Runnable> retries = new LinkedBlockingQueue<>();
    private final LeaseKeeper keeper = new LeaseKeeper(new Leases(redis), spider, LEASE, new CrawlerMetrics(registry, spider, "n1"),
            clock, retries::add);

    /** Waits for the keeper's next retry (asked for as Redis answers), moves the clock on by {@code pause}, and runs it. */
    private void retryAfter(Duration pause) throws InterruptedException {
        Runnable retry = retries.poll(30, TimeUnit.SECONDS);
        assertNotNull(retry, "a retry asked for");
        clock.advance(pause);
        retry.run();
    }

    /** Runs the keeper's retries as they are asked for, each {@link LeaseKeeper#RETRY} after the one before, until {@code call} is done. */
    private void retryUntilDone(CompletableFuture<?> call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!call.isDone() && System.nanoTime() - deadline < 0) {
            Runnable retry = retries.poll(10, TimeUnit.MILLISECONDS);
            if (retry != null) {
                clock.advance(LeaseKeeper.RETRY);
                retry.run();
            }
        }
    }

    /** A lease as the hand-out script leaves it, due in {@code millis} by the Redis clock. */
    private void leased(String leaseId, long millis) {
        redis.sync().hset(spider + ":leased", leaseId, "{\"url\":\"http://a.test/\"}");
        redis.sync().zadd(spider + ":leases", System.currentTimeMillis() + millis, leaseId);
    }

    private Double deadline(String leaseId) {
        return redis.sync().zscore(spider + ":leases", leaseId);
    }

    private double counted(String event) {
        var counter = registry.find("crawler.leases").tag("event", event).counter();
        return counter == null ? 0 : counter.count();
    }

    private double retried(String call) {
        var counter = registry.find("crawler.redis.retries").tag("call", call).counter();
        return counter == null ? 0 : counter.count();
    }

    private double held() {
        return registry.get("crawler.leases.held").gauge().value();
    }

    @Test
    void aLeaseIsRenewedOnceAThirdOfItHasPassed() {
        leased("a|-1|n1-1", 5_000);
        keeper.hold("a|-1|n1-1");

        clock.advance(LEASE.dividedBy(3).minusMillis(1));
        keeper.renewDue();
        assertTrue(deadline("a|-1|n1-1") < System.currentTimeMillis() + 10_000, "not due yet: left as it was");
        assertEquals(0, counted("renewed"));

        clock.advance(Duration.ofMillis(1));
        keeper.renewDue();
        assertTrue(deadline("a|-1|n1-1") > System.currentTimeMillis() + LEASE.toMillis() - 10_000, "moved a whole lease ahead");
        assertEquals(1, counted("renewed"));

        clock.advance(LEASE.dividedBy(3).minusMillis(1));
        keeper.renewDue();
        assertEquals(1, counted("renewed"), "the next renewal counts from the last one");
        assertEquals(1, held());
    }

    @Test
    void aLeaseTheReaperTookIsLostAndNoLongerHeld() {
        keeper.hold("gone|-1|n1-2");

        clock.advance(LEASE);
        keeper.renewDue();

        assertEquals(1, counted("lost"));
        assertEquals(0, held());
        assertNull(deadline("gone|-1|n1-2"));
    }

    @Test
    void anAcknowledgedOrAbandonedLeaseIsNoLongerRenewed() throws Exception {
        leased("b|-1|n1-3", 5_000);
        leased("c|-1|n1-4", 5_000);
        keeper.hold("b|-1|n1-3");
        keeper.hold("c|-1|n1-4");

        assertTrue(keeper.acknowledge("b|-1|n1-3", Optional.empty(), true).get());
        keeper.abandon("c|-1|n1-4");
        clock.advance(LEASE);
        keeper.renewDue();

        assertEquals(0, counted("renewed"));
        assertNull(deadline("b|-1|n1-3"), "acknowledged: gone from Redis");
        assertFalse(redis.sync().hexists(spider + ":leased", "b|-1|n1-3"));
        assertTrue(deadline("c|-1|n1-4") < System.currentTimeMillis() + 10_000, "abandoned: left to expire");
        assertEquals(0, held());
    }

    @Test
    void aLeaseHandedBackIsDueAtOnceAndNoLongerHeld() {
        leased("e|-1|n1-6", LEASE.toMillis());
        keeper.hold("e|-1|n1-6");

        keeper.handBack("e|-1|n1-6").join();

        assertTrue(deadline("e|-1|n1-6") <= System.currentTimeMillis() + 1_000, "due now, for the reaper");
        assertEquals(1, counted("returned"));
        assertEquals(0, held());
    }

    /**
     * Leases handed back while their renewals wait in Redis stay handed back (Redis makes the moves in the order they
     * were sent), and the hand-back waits neither for Redis nor for the renewals: a worker putting a request back goes
     * on with the next while Redis is slow.
     */
    @Test
    void aLeaseHandedBackWhileARenewalIsOutStaysHandedBackAndNobodyWaitsForRedis() throws Exception {
        leased("f|-1|n1-7", LEASE.toMillis());
        leased("g|-1|n1-8", LEASE.toMillis());
        keeper.hold("f|-1|n1-7");
        keeper.hold("g|-1|n1-8");
        clock.advance(LEASE.dividedBy(3));

        Thread renewal;
        List<CompletableFuture<Void>> handedBack;
        try (RedisConnection admin = PrivateRedis.separateConnection()) {
            PrivateRedis.client(admin, "PAUSE", Long.toString(Duration.ofMinutes(1).toMillis()), "WRITE");
            try {
                renewal = Thread.ofPlatform().start(keeper::renewDue);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> admin.sync().clientList().contains(" flags=b "));
                handedBack = List.of(keeper.handBack("f|-1|n1-7"), keeper.handBack("g|-1|n1-8"));
                assertTrue(renewal.isAlive(), "the renewals still wait for Redis");
                assertEquals(List.of(false, false), handedBack.stream().map(CompletableFuture::isDone).toList(), "sent, not answered");
                assertEquals(0, held());
            } finally {
                PrivateRedis.client(admin, "UNPAUSE");
            }
        }
        renewal.join();
        CompletableFuture.allOf(handedBack.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        assertTrue(deadline("f|-1|n1-7") <= System.currentTimeMillis() + 1_000, "due now: no renewal landed after the hand-back");
        assertTrue(deadline("g|-1|n1-8") <= System.currentTimeMillis() + 1_000, "due now: no renewal landed after the hand-back");
        assertEquals(2, counted("returned"));
        assertEquals(0, counted("renewed"), "a renewal answered after its hand-back is not counted");
        assertEquals(0, held());
    }

    @Test
    void closingWaitsForTheAcknowledgementsStillOut() throws InterruptedException {
        leased("h|-1|n1-9", LEASE.toMillis());
        leased("i|-1|n1-10", LEASE.toMillis());
        // one acknowledgement waits in Redis, the other for it; the node then closes the keeper and Redis
        closeWhileRedisPauses(closing -> {
            closing.acknowledge("h|-1|n1-9", Optional.empty(), true);
            closing.acknowledge("i|-1|n1-10", Optional.empty(), true);
        });

        assertNull(deadline("h|-1|n1-9"), "acknowledged before Redis was closed");
        assertNull(deadline("i|-1|n1-10"), "acknowledged before Redis was closed");
    }

    @Test
    void closingWaitsForTheHandBacksStillOut() throws InterruptedException {
        leased("j|-1|n1-11", LEASE.toMillis());
        // a worker put the request back as the node stopped; the hand-back waits in Redis as the node closes it
        closeWhileRedisPauses(closing -> {
            closing.hold("j|-1|n1-11");
            closing.handBack("j|-1|n1-11");
        });

        assertTrue(deadline("j|-1|n1-11") <= System.currentTimeMillis() + 1_000, "handed back before Redis was closed");
    }

    /**
     * With Redis's writes paused, has a keeper of its own connection send {@code writes}, then closes the keeper and that
     * connection, as a stopping node does, and lets Redis go on once the close waits.
     */
    private void closeWhileRedisPauses(Consumer<LeaseKeeper> writes) throws InterruptedException {
        try (RedisConnection admin = PrivateRedis.separateConnection()) {
            RedisConnection own = PrivateRedis.separateConnection();
            LeaseKeeper closing = new LeaseKeeper(new Leases(own), spider, LEASE, new CrawlerMetrics(registry, spider, "n1"), clock);
            PrivateRedis.client(admin, "PAUSE", Long.toString(Duration.ofMinutes(1).toMillis()), "WRITE");
            Thread stop;
            try {
                writes.accept(closing);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> admin.sync().clientList().contains(" flags=b "));
                stop = Thread.ofPlatform().start(() -> {
                    closing.close();
                    own.close();
                });
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !stop.isAlive() || waits(stop));
            } finally {
                PrivateRedis.client(admin, "UNPAUSE");
            }
            stop.join();
        }
    }

    /**
     * Redis refuses the acknowledgement for a while (a key of the wrong type here, which an operator then repairs; Redis
     * unavailable is the same to the keeper): it is tried again until Redis takes it, and finds the lease still held, so
     * its page is not crawled again.
     */
    @Test
    void anAcknowledgementRedisRefusesIsTriedAgainUntilItGoesThrough() throws Exception {
        redis.sync().set(spider + ":leased", "not a hash");

        CompletableFuture<Boolean> ack = keeper.acknowledge("j|-1|n1-11", Optional.empty(), true);
        retryAfter(LeaseKeeper.RETRY);
        retryAfter(LeaseKeeper.RETRY);
        assertFalse(ack.isDone(), "still trying");
        redis.sync().del(spider + ":leased");
        leased("j|-1|n1-11", LEASE.toMillis());
        // the attempt the last retry made may reach Redis before the repair or after it (it may wait for the answer
        // to the batch before it)
        retryUntilDone(ack);

        assertTrue(ack.get(30, TimeUnit.SECONDS), "taken once Redis takes it, the lease still held");
        assertTrue(retried("ack") >= 2, "tried again after each refusal");
        assertNull(deadline("j|-1|n1-11"));
    }

    /** An acknowledgement is tried again until the lease ends, a lease after its last renewal: then it is given up. */
    @Test
    void anAcknowledgementIsGivenUpOnceTheLeaseEnded() throws Exception {
        redis.sync().set(spider + ":leased", "not a hash");
        keeper.hold("k|-1|n1-12");

        CompletableFuture<Boolean> ack = keeper.acknowledge("k|-1|n1-12", Optional.empty(), true);
        retryAfter(LeaseKeeper.RETRY);
        retryAfter(LEASE.dividedBy(2));
        assertFalse(ack.isDone(), "the lease has not ended: tried again");
        retryAfter(LEASE.dividedBy(2));

        ExecutionException failed = assertThrows(ExecutionException.class, () -> ack.get(30, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getMessage().contains("WRONGTYPE"), failed.getCause().toString());
        assertEquals(3, retried("ack"), "not a fourth time");
        assertTrue(retries.isEmpty());
    }

    /** A write of a held lease's outcome is tried again while the lease is held, and given up once it is not. */
    @Test
    void aWriteWhileALeaseIsHeldIsTriedAgainUntilItGoesThroughOrTheLeaseIsLetGo() throws Exception {
        keeper.hold("l|-1|n1-13");
        AtomicInteger attempts = new AtomicInteger();
        try (CapturedLog logged = CapturedLog.start(LeaseKeeper.class, Level.INFO)) {
            CompletableFuture<String> filed = keeper.whileHeld("l|-1|n1-13", "filing", () -> attempts.incrementAndGet() < 3
                    ? CompletableFuture.failedFuture(new RedisCommandTimeoutException("no answer"))
                    : CompletableFuture.completedFuture("filed"));
            retryAfter(LeaseKeeper.RETRY);
            retryAfter(LeaseKeeper.RETRY);
            assertEquals("filed", filed.get(30, TimeUnit.SECONDS));
            assertEquals(2, retried("filing"));
            assertEquals(List.of("WARN Redis write 'filing' failed, Redis unavailable:"
                    + " io.lettuce.core.RedisCommandTimeoutException: no answer; retrying in the background",
                    "INFO Redis write 'filing' works again, Redis is back"), logged.lines(),
                    "the outage said once, and its end");
        }

        CompletableFuture<String> never = keeper.whileHeld("l|-1|n1-13", "filing",
                () -> CompletableFuture.failedFuture(new RedisCommandTimeoutException("no answer")));
        retryAfter(LeaseKeeper.RETRY);
        keeper.abandon("l|-1|n1-13");
        retryAfter(LeaseKeeper.RETRY);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> never.get(30, TimeUnit.SECONDS));
        assertEquals("no answer", failed.getCause().getMessage());
        assertEquals(4, retried("filing"), "not once the lease is let go");
    }

    /** A retry decided as the node stops goes to its queue as it did before the keeper closed (and handed its lease back). */
    @Test
    void aLeaseIsTakenForHeldOnceTheKeeperClosedSoThatARetryIsStillFiled() {
        leased("k|-1|n1-12", LEASE.toMillis());
        leased("l|-1|n1-13", LEASE.toMillis());
        keeper.hold("k|-1|n1-12");
        assertFalse(keeper.stillHeld("l|-1|n1-13").join(), "not this keeper's");

        keeper.close();

        assertTrue(keeper.stillHeld("k|-1|n1-12").join());
    }

    @Test
    void closingHandsTheLeasesStillHeldBackAtOnce() {
        leased("d|-1|n1-5", LEASE.toMillis());
        keeper.hold("d|-1|n1-5");

        keeper.close();

        assertTrue(deadline("d|-1|n1-5") <= System.currentTimeMillis() + 1_000, "due now, for the reaper");
        assertEquals(1, counted("returned"));
        assertEquals(0, held());
    }

    /** Whether {@code thread} waits (for Redis, or for a lock), rather than runs. */
    private static boolean waits(Thread thread) {
        return switch (thread.getState()) {
            case WAITING, TIMED_WAITING, BLOCKED -> true;
            default -> false;
        };
    }
}
