package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/**
 * The scheduler with servers that stop or pause: a node that starts while ZooKeeper is away, a config node that is
 * missing, a hand-out call Redis answers while the scheduler closes, and one Redis runs after its call timed out. Slower than {@link SchedulerTest}: each test
 * starts a private ZooKeeper or redis-server of its own.
 */
class SchedulerServersTest extends SchedulerTestBase {

    /**
     * A node started while ZooKeeper is away does not know the blacklist nor the throttles: it asks Redis for nothing (no
     * request leased, every one stays queued) and its health says why, until it has read the domain config. Then the
     * blacklisted domain stays queued and the other is handed out; a later outage keeps the config read.
     */
    @Test
    void aNodeStartedWhileZooKeeperIsAwayHandsOutNothingUntilItHasReadTheBlacklist() throws Exception {
        String path = "/scrapy-cluster/crawler/" + spider;
        DomainThrottles throttles = throttles(60, 10, false);
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("scheduler-zk-away"));
             CapturedLog log = CapturedLog.start(DomainConfigFollower.class, Level.INFO)) {
            // short timeouts: the start waits one connection timeout for ZooKeeper, an outage is seen within a session's
            ZooKeeperConnection connection = new ZooKeeperConnection(zookeeper.connectString(), Duration.ofSeconds(4),
                    Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofSeconds(1));
            try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
                store.replaceText("blacklist: [banned.test]\n");
            }
            zookeeper.stop();
            try (DomainConfigFollower follower = new DomainConfigFollower(throttles, spider,
                    new CrawlerMetrics(registry, spider, "n1"), inbox::configChanged)) {
                Scheduler scheduler = scheduler(throttles, ROOMY, follower::holdsBack);
                follower.start(connection, path);
                queue("banned.test", 1);
                queue("fine.test", 1);
                inbox.domainsFound(List.of("banned.test", "fine.test"));
                settle(scheduler);
                settleAfter(scheduler, Duration.ofHours(1));
                assertEquals(0, allCalls(), "nothing asked for, so nothing leased");
                Health waiting = follower.health();
                assertFalse(waiting.isUp());
                assertTrue(waiting.detail().contains("has not been read") && waiting.detail().contains("no requests are handed out"),
                        waiting.detail());

                zookeeper.restart();
                assertTrue(scheduler.awaitEvent(TimeUnit.SECONDS.toNanos(30)), "the config read is told to the scheduler");
                settle(scheduler);
                assertEquals(Map.of("fine.test", 1L), dispatchedPerDomain());
                assertEquals(1, redis.sync().zcard(spider + ":banned.test:queue"), "the blacklisted domain's request stays queued");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> follower.health().isUp());

                zookeeper.stop();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !follower.health().isUp());
                queue("fine.test", 1);
                inbox.domainsFound(List.of("banned.test", "fine.test"));
                settle(scheduler);
                assertEquals(Map.of("fine.test", 2L), dispatchedPerDomain(), "the config read stays in force through an outage");
            }
            assertEquals(List.of("WARN Handing out no requests until the domain config (blacklist, throttles) is read from Zookeeper",
                    "INFO Domain config read from Zookeeper; handing out requests"),
                    log.lines().stream().filter(line -> line.contains("out requests") || line.contains("out no requests")).toList());
        }
    }

    /** A config node that is missing is the empty config: known, so nothing is held back. */
    @Test
    void aMissingConfigNodeIsTheEmptyConfigAndHoldsNothingBack() throws Exception {
        DomainThrottles throttles = throttles(60, 10, false);
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("scheduler-zk-empty"));
             DomainConfigFollower follower = new DomainConfigFollower(throttles, spider, new CrawlerMetrics(registry, spider, "n1"),
                     inbox::configChanged)) {
            Scheduler scheduler = scheduler(throttles, ROOMY, follower::holdsBack);
            follower.start(ZooKeeperConnection.to(zookeeper.connectString()), "/scrapy-cluster/crawler/" + spider);
            assertTrue(scheduler.awaitEvent(TimeUnit.SECONDS.toNanos(30)), "the empty config read is told to the scheduler");
            queue("fine.test", 1);
            inbox.domainsFound(List.of("fine.test"));
            settle(scheduler);
            assertEquals(Map.of("fine.test", 1L), dispatchedPerDomain());
        }
    }

    @Test
    void aHandOutAnsweredWhileTheSchedulerClosesIsStillDispatched() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("scheduler-close"));
             RedisConnection own = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            List<LeasedRequest> taken = new CopyOnWriteArrayList<>();
            CrawlerMetrics metrics = new CrawlerMetrics(registry, spider, "n1");
            Scheduler scheduler = new Scheduler(spider, new ThrottledQueue(own), throttles(60, 10, false), domain -> false,
                    new LeaseHolder("n1"), ROOMY, metrics, inbox, clock, taken::add);
            own.sync().zadd(spider + ":late.test:queue", -1, "{\"url\":\"http://late.test/\"}");
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            scheduler.start(failures::add);
            // Redis holds every command for half a second: the hand-out call is out while the scheduler closes
            PrivateRedis.client(own, "PAUSE", "500");
            inbox.domainsFound(List.of("late.test"));
            Awaitility.await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> metrics.inFlight().get() == 1);

            scheduler.close();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> own.sync().zcard(spider + ":leases") == 1);
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertEquals(1, taken.size(),
                    "the request it leased is worked on (and its lease kept or handed back), not left leased"));
            assertEquals(List.of(), failures);
        }
    }

    /**
     * A hand-out call that timed out while the scheduler closed may have leased a request all the same (Redis ran it
     * late): no later answer comes to cut that lease short, so the closing scheduler does, and the reaper returns the
     * request at once rather than when the lease would have ended.
     */
    @Test
    void aLeaseMadeByAHandOutWhoseCallTimedOutWhileTheSchedulerClosedIsCutShort() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("scheduler-close-lost"));
             RedisConnection impatient = impatient(server);
             RedisConnection own = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            CrawlerMetrics metrics = new CrawlerMetrics(registry, spider, "n1");
            ThrottledQueue queue = new ThrottledQueue(impatient);
            Scheduler scheduler = new Scheduler(spider, queue, throttles(60, 10, false), domain -> false, new LeaseHolder("n1"), ROOMY,
                    metrics, inbox, clock, dispatched::add);
            scheduler.start(error -> { });
            inbox.domainsFound(List.of("warm.test"));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> calls("empty") == 1);
            // Redis knows both scripts now: the paused calls run, rather than ask for their source once it is too late
            queue.cutShortUnanswered(spider, new LeaseHolder("n1"), List.of("none")).get(10, TimeUnit.SECONDS);

            own.sync().zadd(spider + ":late.test:queue", -4, "{\"url\":\"http://late.test/\"}");
            PrivateRedis.client(own, "PAUSE", "3000");
            inbox.domainsFound(List.of("late.test"));
            Awaitility.await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10)).until(() -> metrics.inFlight().get() == 1);
            scheduler.close();

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> own.sync().zcard(Keyspace.leases(spider)) == 1);
            String leaseId = own.sync().zrange(Keyspace.leases(spider), 0, 0).getFirst();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> own.sync().zscore(Keyspace.leases(spider), leaseId) == 0);
            assertEquals(List.of(), dispatched.stream().filter(request -> request.queue().domain().equals("late.test")).toList());
        }
    }

    /**
     * Redis paused past the call's timeout, then ran it: the call failed on the node, and the request it leased is held by
     * no one. Once Redis answers the node's next call, that lease is cut short, and the reaper returns the request at once
     * rather than when the lease would have ended.
     */
    @Test
    void aLeaseMadeByAHandOutWhoseCallTimedOutIsCutShortOnceRedisAnswersAgain() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("scheduler-lost-answer"));
             RedisConnection impatient = impatient(server);
             RedisConnection own = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            CrawlerMetrics metrics = new CrawlerMetrics(registry, spider, "n1");
            Scheduler scheduler = new Scheduler(spider, new ThrottledQueue(impatient), throttles(60, 10, false), domain -> false,
                    new LeaseHolder("n1"), ROOMY, metrics, inbox, clock, dispatched::add);
            inbox.domainsFound(List.of("warm.test"));
            settle(scheduler); // Redis knows the hand-out script now: the paused call runs rather than asks for its source

            own.sync().zadd(spider + ":late.test:queue", -4, "{\"url\":\"http://late.test/\"}");
            PrivateRedis.client(own, "PAUSE", "3000");
            inbox.domainsFound(List.of("late.test"));
            settle(scheduler);
            assertEquals(1, calls("failed"), "the call timed out on the node");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> own.sync().zcard(Keyspace.leases(spider)) == 1);
            String leaseId = own.sync().zrange(Keyspace.leases(spider), 0, 0).getFirst();
            assertTrue(own.sync().zscore(Keyspace.leases(spider), leaseId) > System.currentTimeMillis() + 30_000,
                    "Redis ran it after the pause: the request is leased for a minute");

            settleAfter(scheduler, ROOMY.retryAfterFailure());
            assertEquals(2, calls("empty"), "asked again (after warm.test), answered: nothing left to hand out");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> own.sync().zscore(Keyspace.leases(spider), leaseId) == 0);
            assertEquals(1, registry.get("crawler.leases").tag("event", "cut_short").counter().count());
            assertEquals(1, new Leases(own).reap(spider, 10).returned());
            assertEquals(1, own.sync().zcard(spider + ":late.test:queue"), "back in its queue, not a minute later");
            assertEquals(List.of(), dispatched.stream().filter(request -> request.queue().domain().equals("late.test")).toList());
        }
    }

    /** A connection to {@code server} that gives a command up after 1 s: a pause of Redis (3 s) times its calls out. */
    private static RedisConnection impatient(EmbeddedRedis server) {
        return RedisConnection.open(new RedisEndpoint(server.host(), server.port(), 0, null, false, Duration.ofSeconds(1)));
    }
}
