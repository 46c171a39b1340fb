package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
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
    private final LeaseKeeper keeper = new LeaseKeeper(new Leases(redis), spider, LEASE, new CrawlerMetrics(registry, spider, "n1"),
            clock);

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

        keeper.handBack("e|-1|n1-6");

        assertTrue(deadline("e|-1|n1-6") <= System.currentTimeMillis() + 1_000, "due now, for the reaper");
        assertEquals(1, counted("returned"));
        assertEquals(0, held());
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
}
