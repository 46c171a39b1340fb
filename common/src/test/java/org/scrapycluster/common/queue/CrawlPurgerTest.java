package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class CrawlPurgerTest {

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final ThrottledQueue throttle;
    private final CrawlCounts counts;
    private final CrawlPurger purger;
    private final String spider = TestRedis.unique("purge");
    private final CrawlRef stopped = new CrawlRef(spider, "app", "stopped");
    private final CrawlRef kept = new CrawlRef(spider, "app", "kept");
    private final ThrottleSpec open = new ThrottleSpec("open-" + spider, 60, 10_000, false);

    CrawlPurgerTest(RedisConnection redis) {
        this.redis = redis;
        enqueuer = new Enqueuer(redis, false);
        throttle = new ThrottledQueue(redis);
        counts = new CrawlCounts(redis);
        purger = new CrawlPurger(redis, 25);
    }

    private void fill(CrawlRef crawl, String domain, int count) {
        QueueKey queue = new QueueKey(spider, domain);
        List<EnqueueRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String url = "https://" + domain + "/" + crawl.crawlid() + "/" + i;
            requests.add(EnqueueRequest.of(queue, i % 2 == 0
                    ? Members.feedItem(url, crawl.appid(), crawl.crawlid(), i % 7, 0)
                    : Members.serializedRequest(url, crawl.appid(), crawl.crawlid(), -(i % 7), 0)));
        }
        assertTrue(enqueuer.enqueueBatch(requests).stream().allMatch(EnqueueOutcome::queued));
    }

    @Test
    void removesTheCrawlsQueuedAndLeasedRequestsAndNothingElse() {
        fill(stopped, "a.com", 120);
        fill(stopped, "b.org", 30);
        fill(kept, "a.com", 40);
        QueueKey a = new QueueKey(spider, "a.com");
        List<String> leaseIds = new ArrayList<>();
        LeaseHolder holder = new LeaseHolder("n1");
        for (int i = 0; i < 10; i++) {
            HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, throttle.handOut(a, open, Duration.ofMinutes(5), holder.next()));
            leaseIds.add(out.leaseId().orElseThrow());
        }
        long stoppedLeases = leaseIds.stream().filter(id -> redis.sync().hget(Keyspace.leased(spider), id).contains("\"stopped\"")).count();

        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());
        PurgeResult result = purger.purge(stopped);

        assertEquals(stoppedLeases, result.leased());
        assertEquals(150 - stoppedLeases, result.queued());
        assertEquals(150, result.total());
        assertEquals(0, counts.crawl(stopped).orElseThrow().pending());
        assertEquals(0, redis.sync().zcard(new QueueKey(spider, "b.org").key()));
        assertEquals(List.of("a.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1),
                "the queue purged empty left the active domains, the other kept its place");
        assertTrue(redis.sync().ttl(Keyspace.ACTIVATION_MARKER.fill(spider)) > 86_000, "the marker lasts a day");
        assertEquals(40, counts.crawl(kept).orElseThrow().pending());
        assertEquals(40 - (10 - stoppedLeases), throttle.size(a));
        assertEquals(10 - stoppedLeases, new Leases(redis).count(spider));
        assertEquals(new PurgeResult(0, 0), purger.purge(stopped), "a second purge finds nothing");
    }

    @Test
    void isCompleteWhileRequestsKeepArriving() throws Exception {
        fill(stopped, "a.com", 200);
        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());
        CompletableFuture<List<EnqueueOutcome>> children = CompletableFuture.supplyAsync(() -> {
            List<EnqueueOutcome> outcomes = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                outcomes.add(enqueuer.enqueue(EnqueueRequest.of(new QueueKey(spider, "a.com"),
                        Members.serializedRequest("https://a.com/child/" + i, "app", "stopped", -9, 0))));
            }
            return outcomes;
        });
        PurgeResult result = purger.purge(stopped);
        assertTrue(children.get().stream().allMatch(outcome -> outcome == EnqueueOutcome.BLACKLISTED));
        assertEquals(200, result.queued());
        assertEquals(0, redis.sync().zcard(new QueueKey(spider, "a.com").key()));
    }

    @Test
    void purgesEveryQueueOfTheSpiderForACrawlWithoutAccounting() {
        for (String domain : List.of("x.com", "y.com")) {
            QueueKey queue = new QueueKey(spider, domain);
            redis.sync().zadd(queue.key(), -1, Members.feedItem("https://" + domain + "/", "app", "stopped", 1, 0));
            redis.sync().zadd(queue.key(), -1, Members.feedItem("https://" + domain + "/k", "app", "kept", 1, 0));
            redis.sync().zadd(queue.key(), -1, "garbage that is not JSON");
        }
        assertEquals(new PurgeResult(2, 0), purger.purge(stopped));
        assertEquals(2, redis.sync().zcard(new QueueKey(spider, "x.com").key()));
    }

    @Test
    void aCrawlWithACounterHoldingNoNumberIsPurgedAllTheSameAndItsAccountingDeletedOnceForgotten() {
        fill(stopped, "a.com", 30);
        fill(kept, "a.com", 5);
        redis.sync().hset(stopped.accountingKey(), "a.com|3", "edited by hand");
        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());

        assertEquals(new PurgeResult(30, 0), purger.purge(stopped));
        assertTrue(counts.foreign(stopped), "its counters no longer answer for it");
        assertFalse(counts.forget(stopped).kept());

        assertEquals(0, redis.sync().exists(stopped.accountingKey()));
        assertEquals(5, throttle.size(new QueueKey(spider, "a.com")));
        assertEquals(5, counts.crawl(kept).orElseThrow().pending());
    }

    @Test
    void aCrawlWithAKeyOfAnotherTypeAtItsAccountingsNameIsPurgedFromEveryQueueAndTheKeyDeletedOnceForgotten() {
        fill(stopped, "a.com", 10);
        fill(stopped, "b.org", 10);
        fill(kept, "a.com", 5);
        redis.sync().del(stopped.accountingKey());
        redis.sync().set(stopped.accountingKey(), "a string written by hand");
        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());

        assertEquals(new PurgeResult(20, 0), purger.purge(stopped));
        assertEquals(new CrawlCounts.Forgotten(false, 0, 20), counts.forget(stopped));

        assertEquals(0, redis.sync().exists(stopped.accountingKey()));
        assertEquals(5, counts.crawl(kept).orElseThrow().pending());
    }

    @Test
    void aQueueLengthsKeyOfAnotherTypeStopsNeitherFilingNorPurges() {
        redis.sync().set(Keyspace.queueLengths(spider), "a string written by hand");
        fill(stopped, "a.com", 10);
        fill(kept, "a.com", 5);
        redis.sync().sadd(Keyspace.blacklist(spider), stopped.blacklistEntry());

        assertEquals(new PurgeResult(10, 0), purger.purge(stopped));

        assertEquals(5, throttle.size(new QueueKey(spider, "a.com")));
        assertTrue(counts.trusted(kept).isEmpty(), "the lengths no longer vouch for the counters: the queues are read");
    }

    @Test
    void aCompletedCrawlIsRetiredOnlyWhileNothingIsPending() {
        fill(kept, "a.com", 1);
        Instant afterFill = Instant.now().plusSeconds(1);
        assertEquals(List.of(kept), counts.quietSince(afterFill, 100_000).stream().filter(ref -> ref.spiderId().equals(spider)).toList());
        assertTrue(counts.retireIfIdle(kept, afterFill).isEmpty());
        throttle.pop(new QueueKey(spider, "a.com"), open);
        assertTrue(counts.retireIfIdle(kept, Instant.now().minusSeconds(60)).isEmpty(), "active after the quiet bound");
        assertEquals(OptionalLong.of(0), counts.retireIfIdle(kept, Instant.now().plusSeconds(1)));
        assertTrue(counts.retireIfIdle(kept, Instant.now().plusSeconds(1)).isEmpty(), "retired once only");
        assertTrue(counts.crawl(kept).isEmpty());
        assertFalse(redis.sync().sismember(Keyspace.crawlsOfApp(spider, "app"), "kept"));
        assertNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, kept.name()));
    }
}
