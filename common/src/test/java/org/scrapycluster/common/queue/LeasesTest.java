package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScoredValue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

@ExtendWith(TestRedis.class)
class LeasesTest {

    private final RedisConnection redis;
    private final ThrottledQueue throttle;
    private final Enqueuer enqueuer;
    private final Leases leases;
    private final CrawlCounts counts;
    private final LeaseHolder holder = new LeaseHolder("node1");
    private final String spider = TestRedis.unique("lease");
    private final QueueKey queue = new QueueKey(spider, "ex1.com");
    private final CrawlRef crawl = new CrawlRef(spider, "app", "c1");
    private final ThrottleSpec open = new ThrottleSpec("open-" + spider, 60, 1000, false);

    LeasesTest(RedisConnection redis) {
        this.redis = redis;
        throttle = new ThrottledQueue(redis);
        enqueuer = new Enqueuer(redis, false);
        leases = new Leases(redis);
        counts = new CrawlCounts(redis);
    }

    private String enqueue(String path, int priority) {
        String member = Members.feedItem("https://ex1.com/" + path, "app", "c1", priority, 0);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member)));
        return member;
    }

    private HandOut.HandedOut lease(Duration duration) {
        return assertInstanceOf(HandOut.HandedOut.class, throttle.handOut(queue, open, duration, holder.next()));
    }

    /** Acknowledges a handed-out request with the crawl fields of its member, as a crawler does. */
    private boolean ack(HandOut.HandedOut out, boolean pagePublished) {
        return leases.ackAsync(spider, out.leaseId().orElseThrow(), CrawlFields.ofMember(out.member()), pagePublished).join();
    }

    @Test
    void aRequestOfADomainWithABarReturnsToItsQueue() {
        // a Python Kafka monitor names the queue of http://a|b.com/ by tldextract, bar included
        QueueKey barred = new QueueKey(spider, "a|b.com");
        String member = Members.feedItem("http://a|b.com/", "app", "c1", 3, 0);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(barred, member)));
        assertInstanceOf(HandOut.HandedOut.class, throttle.handOut(barred, open, Duration.ofMillis(1), holder.next()));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).handled() == 1);
        assertEquals(List.of(ScoredValue.just(-3, member)), redis.sync().zrangeWithScores(barred.key(), 0, -1));
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending());
    }

    @Test
    void aCrashedHoldersRequestReturnsToItsQueueWithItsPriority() {
        String member = enqueue("a", 7);
        HandOut.HandedOut out = lease(Duration.ofMillis(200));
        assertEquals(0, throttle.size(queue));
        assertEquals(new HandOut.Empty(0), throttle.handOut(queue, open, Duration.ofMillis(200), holder.next()));
        assertEquals(List.of(), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).returned() == 1);
        assertEquals(List.of(ScoredValue.just(-7, member)), redis.sync().zrangeWithScores(queue.key(), 0, -1));
        assertEquals(List.of("ex1.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
        assertEquals(0, leases.count(spider));
        assertEquals(0, redis.sync().hlen(Keyspace.leased(spider)));
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending(), "still pending, never counted twice");
        assertFalse(ack(out, true), "the old lease is gone");
        assertEquals(member, lease(Duration.ofMinutes(1)).member());
    }

    @Test
    void aLeaseWhoseQueueRedisRefusesIsKeptForLaterNotLost() {
        String member = enqueue("a", 7);
        HandOut.HandedOut out = lease(Duration.ofMillis(1));
        redis.sync().set(queue.key(), "a string where the queue was");

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).handled() == 1);
        assertEquals(member, redis.sync().hget(Keyspace.leased(spider), out.leaseId().orElseThrow()), "the lease is kept");
        double deadline = redis.sync().zscore(Keyspace.leases(spider), out.leaseId().orElseThrow());
        assertTrue(deadline > serverMillis() + 50_000, "due again a minute on, not at every pass");
        assertEquals(0, leases.reap(spider, 10).handled());

        redis.sync().del(queue.key());
        redis.sync().zadd(Keyspace.leases(spider), 0, out.leaseId().orElseThrow());
        assertEquals(1, leases.reap(spider, 10).returned(), "returned once the queue is repaired");
        assertEquals(List.of(ScoredValue.just(-7, member)), redis.sync().zrangeWithScores(queue.key(), 0, -1));
    }

    /** The request goes back only with its domain marked active: a lease entry is never left without its deadline. */
    @Test
    void aLeaseWhoseSpidersActiveDomainsRedisRefusesIsKeptForLaterNotLost() {
        String member = enqueue("a", 7);
        HandOut.HandedOut out = lease(Duration.ofMillis(1));
        redis.sync().del(Keyspace.activeDomains(spider));
        redis.sync().set(Keyspace.activeDomains(spider), "a string where the active domains were");

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).handled() == 1);
        assertEquals(member, redis.sync().hget(Keyspace.leased(spider), out.leaseId().orElseThrow()), "the lease is kept");
        assertTrue(redis.sync().zscore(Keyspace.leases(spider), out.leaseId().orElseThrow()) > serverMillis() + 50_000,
                "with its deadline, due again a minute on");
        assertEquals(List.of(), redis.sync().zrange(queue.key(), 0, -1), "its request is not queued beside it");

        redis.sync().del(Keyspace.activeDomains(spider));
        redis.sync().zadd(Keyspace.leases(spider), 0, out.leaseId().orElseThrow());
        assertEquals(1, leases.reap(spider, 10).returned(), "returned once the active domains are repaired");
        assertEquals(List.of(ScoredValue.just(-7, member)), redis.sync().zrangeWithScores(queue.key(), 0, -1));
        assertEquals(List.of("ex1.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
        assertEquals(0, leases.count(spider));
    }

    @Test
    void aLeaseWhoseRequestIsQueuedAgainAndWhoseCrawlsAccountingRedisRefusesIsReaped() {
        String member = enqueue("a", 7);
        lease(Duration.ofMillis(1));
        enqueue("a", 7); // queued again meanwhile, as a retry would
        redis.sync().del(crawl.accountingKey());
        redis.sync().set(crawl.accountingKey(), "a string where the crawl's accounting was");

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).handled() == 1);
        assertEquals(0, leases.count(spider), "the lease is gone, not failing every reap of the spider");
        assertEquals(List.of(member), redis.sync().zrange(queue.key(), 0, -1));
        assertTrue(counts.foreign(crawl), "the crawl is answered for from its queues");
    }

    @Test
    void theReaperReturnsLeasesOfARedisAtItsMemoryLimit() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("reap-at-maxmemory"));
             RedisConnection full = TestRedis.connect(server)) {
            QueueKey own = new QueueKey(spider, "ex1.com");
            String member = Members.feedItem("https://ex1.com/a", "app", "c1", 7, 0);
            assertEquals(EnqueueOutcome.QUEUED, new Enqueuer(full, false).enqueue(EnqueueRequest.of(own, member)));
            assertInstanceOf(HandOut.HandedOut.class, new ThrottledQueue(full).handOut(own, open, Duration.ofMillis(1), holder.next()));
            full.sync().configSet("maxmemory", "1"); // every write that may add data refused while a call has written nothing

            Leases atLimit = new Leases(full);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> atLimit.reap(spider, 10).handled() == 1);

            assertEquals(List.of(ScoredValue.just(-7, member)), full.sync().zrangeWithScores(own.key(), 0, -1),
                    "a removal first, as the hand-out and the acknowledgement do, lets the request back in");
            assertEquals(0, atLimit.count(spider));
        }
    }

    private long serverMillis() {
        List<String> time = redis.sync().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    /**
     * Hand-outs whose answers were lost: only the leases of the holders named, of this node, are made due; the reaper
     * then returns their requests at once, and the leases of other hand-outs and other nodes run on.
     */
    @Test
    void theLeasesOfHandOutsWhoseAnswersWereLostAreCutShortAndReapedAtOnce() {
        String lostMember = enqueue("lost", 2);
        enqueue("kept", 1);
        enqueue("other-node", 0);
        String lostHolder = holder.next();
        HandOut.HandedOut lost = assertInstanceOf(HandOut.HandedOut.class, throttle.handOut(queue, open, Duration.ofMinutes(10), lostHolder));
        HandOut.HandedOut kept = lease(Duration.ofMinutes(10));
        // another node whose id ends like this one's, and whose sequence number is the lost holder's
        LeaseHolder otherNode = new LeaseHolder("xnode1");
        HandOut.HandedOut other = assertInstanceOf(HandOut.HandedOut.class,
                throttle.handOut(queue, open, Duration.ofMinutes(10), otherNode.next()));

        assertEquals(1L, throttle.cutShortUnanswered(spider, holder, List.of(lostHolder, holder.next())).join(),
                "one lease found; the other holder's hand-out made none");
        assertEquals(0.0, redis.sync().zscore(Keyspace.leases(spider), lost.leaseId().orElseThrow()));
        assertEquals(new Leases.ReapResult(1, 1, false), leases.reap(spider, 10));
        assertEquals(List.of(ScoredValue.just(-2, lostMember)), redis.sync().zrangeWithScores(queue.key(), 0, -1));
        assertEquals(2, leases.count(spider), "the other leases run on");
        assertTrue(redis.sync().zscore(Keyspace.leases(spider), kept.leaseId().orElseThrow()) > System.currentTimeMillis());
        assertTrue(redis.sync().zscore(Keyspace.leases(spider), other.leaseId().orElseThrow()) > System.currentTimeMillis());
        assertEquals(0L, throttle.cutShortUnanswered(spider, holder, List.of()).join());
    }

    @Test
    void ackRemovesTheLeaseAndCountsThePage() {
        enqueue("a", 1);
        enqueue("b", 1);
        HandOut.HandedOut first = lease(Duration.ofMinutes(1));
        HandOut.HandedOut second = lease(Duration.ofMinutes(1));
        assertTrue(ack(first, true));
        assertTrue(ack(second, false));
        assertFalse(ack(first, true), "a second ack finds nothing");
        assertEquals(0, leases.count(spider));
        assertEquals(0, redis.sync().hlen(Keyspace.leased(spider)));
        CrawlCount count = counts.crawl(crawl).orElseThrow();
        assertEquals(0, count.pending());
        assertEquals(1, count.pages());
        assertEquals(0, count.totalDomains());
    }

    @Test
    void aLeaseAcknowledgedTwiceInOneCallIsHeldOnlyTheFirstTime() {
        enqueue("a", 1);
        enqueue("b", 1);
        HandOut.HandedOut out = lease(Duration.ofMinutes(1));
        Leases.Ack ack = new Leases.Ack(out.leaseId().orElseThrow(), CrawlFields.ofMember(out.member()), true);
        assertEquals(List.of(true, false), leases.ackAllAsync(spider, List.of(ack, ack)).join());
        CrawlCount count = counts.crawl(crawl).orElseThrow();
        assertEquals(1, count.pending(), "b is still queued");
        assertEquals(1, count.pages());
        assertFalse(redis.sync().sismember(Keyspace.CRAWLS_FOREIGN, crawl.name()));
    }

    @Test
    void acksInOneCallCountAsAcksOneByOne() {
        Map<String, String> oneByOne = settleSixRequests(TestRedis.unique("acks"), false);
        Map<String, String> together = settleSixRequests(TestRedis.unique("acks"), true);
        assertEquals(oneByOne, together);
        assertEquals("3", together.get("pages"));
        assertEquals("1", together.get("pending"), "the request left in its queue");
        assertEquals("1", together.get("ex2.com|2"));
    }

    /**
     * Queues six requests of one crawl on two domains and priorities, leases five and acknowledges them
     * (three publishing a page) with a lease already gone between them; returns the crawl's counters
     * without their time of update.
     */
    private Map<String, String> settleSixRequests(String spiderId, boolean inOneCall) {
        List<Leases.Ack> acks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            QueueKey domainQueue = new QueueKey(spiderId, i % 2 == 0 ? "ex1.com" : "ex2.com");
            String member = Members.feedItem("https://" + domainQueue.domain() + "/" + i, "app", "c1", 1 + i % 2, 0);
            assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(domainQueue, member)));
            if (i < 5) {
                HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class,
                        throttle.handOut(domainQueue, open, Duration.ofMinutes(1), holder.next()));
                acks.add(new Leases.Ack(out.leaseId().orElseThrow(), CrawlFields.ofMember(out.member()), i < 3));
            }
        }
        acks.add(2, new Leases.Ack("ex1.com|-1|gone", acks.get(0).crawl(), true));
        List<Boolean> held = inOneCall ? leases.ackAllAsync(spiderId, acks).join()
                : acks.stream().map(ack -> leases.ackAsync(spiderId, ack.leaseId(), ack.crawl(), ack.pagePublished()).join()).toList();
        assertEquals(List.of(true, true, false, true, true, true), held);
        assertEquals(0, leases.count(spiderId));
        Map<String, String> counters = new HashMap<>(redis.sync().hgetall(new CrawlRef(spiderId, "app", "c1").accountingKey()));
        assertTrue(counters.remove("updated") != null);
        assertTrue(counters.remove("started") != null);
        return counters;
    }

    @Test
    void aCrawlWhoseAccountingRedisRefusesKeepsNoAckOfAnotherCrawlFromBeingCounted() {
        enqueue("a", 1);
        String other = Members.feedItem("https://ex1.com/b", "app", "c2", 1, 0);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, other)));
        List<Leases.Ack> acks = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HandOut.HandedOut out = lease(Duration.ofMinutes(1));
            acks.add(new Leases.Ack(out.leaseId().orElseThrow(), CrawlFields.ofMember(out.member()), true));
        }
        CrawlRef broken = new CrawlRef(spider, "app", "c2");
        redis.sync().hset(broken.accountingKey(), "pages", "edited by hand");

        assertEquals(List.of(true, true), leases.ackAllAsync(spider, acks).join());

        CrawlCount count = counts.crawl(crawl).orElseThrow();
        assertEquals(0, count.pending(), "the other crawl's request is taken off its counters");
        assertEquals(1, count.pages());
        assertEquals(0, leases.count(spider));
        assertTrue(counts.foreign(broken), "the refused crawl is answered for from its queues");
    }

    @Test
    void acksOfRequestsNeverCountedMarkTheirCrawlForeign() {
        for (String path : List.of("a", "b", "c")) {
            enqueue(path, 1);
        }
        List<Leases.Ack> acks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HandOut.HandedOut out = lease(Duration.ofMinutes(1));
            acks.add(new Leases.Ack(out.leaseId().orElseThrow(), CrawlFields.ofMember(out.member()), true));
        }
        String accounting = crawl.accountingKey();
        redis.sync().hincrby(accounting, "ex1.com|1", -2);
        assertEquals(List.of(true, true, true), leases.ackAllAsync(spider, acks).join());
        assertNull(redis.sync().hget(accounting, "ex1.com|1"));
        assertEquals("2", redis.sync().hget(accounting, "pending"), "one of three was counted");
        assertEquals("3", redis.sync().hget(accounting, "pages"));
        assertTrue(redis.sync().sismember(Keyspace.CRAWLS_FOREIGN, crawl.name()));
    }

    @Test
    void renewMovesTheDeadline() throws InterruptedException {
        enqueue("a", 1);
        HandOut.HandedOut out = lease(Duration.ofMillis(400));
        String leaseId = out.leaseId().orElseThrow();
        Instant deadline = leases.renewed(leases.renewAsync(spider, leaseId, Duration.ofMinutes(1))).orElseThrow();
        assertTrue(deadline.isAfter(out.at().plusSeconds(59)), deadline.toString());
        Thread.sleep(600);
        assertEquals(0, leases.reap(spider, 10).returned(), "renewed: not due");
        assertEquals(1, leases.count(spider));
        assertTrue(ack(out, true));
        assertTrue(leases.renewed(leases.renewAsync(spider, leaseId, Duration.ofMinutes(1))).isEmpty(),
                "nothing to renew after the ack");
    }

    @Test
    void concurrentReapersReturnEachLeaseOnce() throws Exception {
        for (int i = 0; i < 300; i++) {
            enqueue("p" + i, i % 5);
        }
        for (int i = 0; i < 300; i++) {
            lease(Duration.ofMillis(1));
        }
        Thread.sleep(50);
        try (RedisConnection other = RedisConnection.open(redis.endpoint())) {
            Leases second = new Leases(other);
            List<CompletableFuture<Integer>> reapers = new ArrayList<>();
            for (Leases reaper : List.of(leases, second)) {
                reapers.add(CompletableFuture.supplyAsync(() -> {
                    int returned = 0;
                    Leases.ReapResult result;
                    do {
                        result = reaper.reap(spider, 7);
                        returned += result.returned();
                    } while (result.more());
                    return returned;
                }));
            }
            int total = reapers.get(0).get() + reapers.get(1).get();
            assertEquals(300, total);
        }
        assertEquals(300, throttle.size(queue));
        assertEquals(0, leases.count(spider));
        assertEquals(300, counts.crawl(crawl).orElseThrow().pending());
        assertEquals(new Leases.ReapResult(0, 0, false), leases.reap(spider, 7));
    }

    @Test
    void aRequestQueuedAgainMeanwhileIsNotDuplicated() {
        String member = enqueue("a", 3);
        lease(Duration.ofMillis(1));
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member)));
        assertEquals(2, counts.crawl(crawl).orElseThrow().pending());
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.reap(spider, 10).handled() == 1);
        assertEquals(1, throttle.size(queue));
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending());
    }
}
