package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * The retire script's gate against expiry (docs/redis-monitor.md "complete"): a crawl whose timeout has
 * come is left to the expire job, even when the hand-outs that dropped its requests left it with nothing
 * pending; a crawl whose timeout is still ahead is retired as any other.
 */
@ExtendWith(TestRedis.class)
class CrawlRetirementTest {

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final ThrottledQueue throttle;
    private final CrawlCounts counts;
    private final String spider = TestRedis.unique("retire");
    private final QueueKey queue = new QueueKey(spider, "a.com");
    private final ThrottleSpec open = new ThrottleSpec("open-" + spider, 60, 10_000, false);

    CrawlRetirementTest(RedisConnection redis) {
        this.redis = redis;
        this.enqueuer = new Enqueuer(redis, false);
        this.throttle = new ThrottledQueue(redis);
        this.counts = new CrawlCounts(redis);
    }

    @Test
    void anExpiredCrawlWhoseRequestsTheHandOutDroppedIsLeftForTheExpireJob() {
        CrawlRef crawl = new CrawlRef(spider, "app", "expiring");
        long expires = serverTime().getEpochSecond() + 1;
        enqueue(crawl, expires);
        // the Redis server's clock cannot be driven: wait for it to pass the crawl's expires
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> serverTime().getEpochSecond() > expires);
        assertEquals(1, assertInstanceOf(HandOut.Empty.class, throttle.pop(queue, open)).dropped(), "the hand-out drops the expired request");
        assertEquals(0, counts.crawl(crawl).orElseThrow().pending());

        assertTrue(counts.retireIfIdle(crawl, quietBound()).isEmpty(), "an expired crawl is not announced complete");
        assertEquals(Long.toString(expires), redis.sync().get(crawl.timeoutKey()), "its timeout key stays, for the expire job");
        assertNotNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));
        assertTrue(counts.crawl(crawl).isPresent());
        assertTrue(completedEntries(crawl).isEmpty(), "nothing filed in crawls:completed");
    }

    @Test
    void aCrawlWhoseTimeoutIsStillAheadIsRetiredAndKeepsItsTimeoutForTheExpireJob() {
        CrawlRef crawl = new CrawlRef(spider, "app", "finished");
        long before = serverTime().getEpochSecond();
        long expires = before + 3600;
        enqueue(crawl, expires);
        long started = startOf(crawl) / 1000;
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open));

        assertEquals(OptionalLong.of(0), counts.retireIfIdle(crawl, quietBound()));
        assertEquals(Long.toString(expires), redis.sync().get(crawl.timeoutKey()), "announced as expired at its time, as in the original");
        assertEquals(Map.of("pending", "0"), redis.sync().hgetall(crawl.accountingKey()),
                "what is left of its accounting says nothing is pending, so that the expire job's purge reads no queue");
        assertTrue(counts.trusted(crawl).orElseThrow().domains().isEmpty());
        long gone = expires + CrawlCounts.FORGOTTEN_ACCOUNTING_TTL.toSeconds();
        assertTrue(Math.abs(redis.sync().ttl(crawl.accountingKey()) - (gone - serverTime().getEpochSecond())) <= 2,
                "kept until a day after the expiry, as a forgotten crawl's");
        assertNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));
        assertTrue(started >= before);
        assertEquals(List.of("[\"" + spider + "\",\"app\",\"finished\",0," + started + "]"), completedEntries(crawl),
                "filed with its start, the second its first request was counted");

        enqueue(crawl, 0, "https://a.com/later");
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending(), "a later seed counts on it as on a new crawl's");
        assertTrue(startOf(crawl) / 1000 >= started);
    }

    /** Written by its first filing, a crawl's start stays through later ones, and through a drain before its retirement. */
    @Test
    void aCrawlsStartIsWhenItsFirstRequestWasCounted() {
        CrawlRef crawl = new CrawlRef(spider, "app", "long");
        enqueue(crawl, 0, "https://a.com/first");
        long started = startOf(crawl);
        Instant first = serverTime();
        Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> serverTime().toEpochMilli() > first.toEpochMilli());
        enqueue(crawl, 0, "https://a.com/second");
        assertEquals(started, startOf(crawl), "a later filing keeps the start");
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open)); // handed out without a lease: settled
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open));
        assertEquals(0, counts.crawl(crawl).orElseThrow().pending(), "drained");
        enqueue(crawl, 0, "https://a.com/third");
        assertEquals(started, startOf(crawl), "so does one after it drained, before its retirement");
        assertEquals(OptionalLong.of(started), redis.await(counts.totals(crawl)).orElseThrow().started());
    }

    /** One counted by a build that recorded no start is announced without one. */
    @Test
    void aCrawlWithoutAStartIsFiledWithoutOne() {
        CrawlRef crawl = new CrawlRef(spider, "app", "older");
        enqueue(crawl, 0);
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open));
        redis.sync().hdel(crawl.accountingKey(), "started");

        assertEquals(OptionalLong.empty(), redis.await(counts.totals(crawl)).orElseThrow().started());
        assertEquals(OptionalLong.of(0), counts.retireIfIdle(crawl, quietBound()));
        assertEquals(List.of("[\"" + spider + "\",\"app\",\"older\",0]"), completedEntries(crawl));
    }

    @Test
    void aTimeoutKeyThatHoldsNoTimeDoesNotHoldBackTheRetirement() {
        CrawlRef crawl = new CrawlRef(spider, "app", "odd");
        enqueue(crawl, serverTime().getEpochSecond() + 3600);
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open));
        redis.sync().set(crawl.timeoutKey(), "soon");

        assertEquals(OptionalLong.of(0), counts.retireIfIdle(crawl, quietBound()));
    }

    @Test
    void aQuietCrawlWithRequestsPendingIsMadeActiveAgainNotRetired() {
        CrawlRef crawl = new CrawlRef(spider, "app", "stalled");
        enqueue(crawl, serverTime().getEpochSecond() + 3600);
        Instant before = serverTime();

        assertEquals(new Retirement.Busy(), redis.await(counts.retireIfIdleAsync(crawl, quietBound(), false)));
        assertTrue(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()) >= before.toEpochMilli(),
                "active at the check: quiet again only a quiet period later");
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending());
        assertTrue(completedEntries(crawl).isEmpty());
    }

    @Test
    void aCrawlActiveAfterTheQuietBoundIsLeftAsItIs() {
        CrawlRef crawl = new CrawlRef(spider, "app", "recent");
        enqueue(crawl, serverTime().getEpochSecond() + 3600);
        Double score = redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name());

        assertEquals(new Retirement.Kept(), redis.await(counts.retireIfIdleAsync(crawl, serverTime().minusSeconds(60), false)));
        assertEquals(score, redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));
    }

    /**
     * A crawl a Python Redis monitor stopped or expired: it blacklisted the crawl (and deleted its timeout key), our
     * hand-out dropped the request it did not purge, so nothing is pending. It is forgotten as a stop forgets it.
     */
    @Test
    void aQuietCrawlInItsSpidersBlacklistIsForgottenNotAnnounced() {
        CrawlRef crawl = new CrawlRef(spider, "app", "stopped");
        enqueue(crawl, 0);
        redis.sync().sadd(Keyspace.blacklist(spider), crawl.blacklistEntry());
        assertEquals(1, assertInstanceOf(HandOut.Empty.class, throttle.pop(queue, open)).dropped(), "the hand-out drops it");
        assertEquals(0, counts.crawl(crawl).orElseThrow().pending());

        assertEquals(new Retirement.Forgotten(), redis.await(counts.retireIfIdleAsync(crawl, quietBound(), false)));
        assertTrue(completedEntries(crawl).isEmpty(), "nothing filed in crawls:completed");
        assertNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));
        assertFalse(redis.sync().sismember(Keyspace.crawlsOfApp(spider, "app"), crawl.crawlid()));
        assertTrue(redis.sync().ttl(crawl.accountingKey()) > 0, "its accounting is left to expire, as a stop leaves it");
    }

    /** So is one whose accounting cannot answer for it, once its queues were read; its accounting is deleted. */
    @Test
    void aForeignCrawlInItsSpidersBlacklistIsForgottenNotAnnounced() {
        CrawlRef crawl = new CrawlRef(spider, "app", "stopped-foreign");
        enqueue(crawl, 0);
        redis.sync().sadd(Keyspace.CRAWLS_FOREIGN, crawl.name());
        redis.sync().sadd(Keyspace.blacklist(spider), crawl.blacklistEntry());

        assertEquals(new Retirement.Forgotten(), redis.await(counts.retireIfIdleAsync(crawl, quietBound(), true)));
        assertTrue(completedEntries(crawl).isEmpty());
        assertEquals(0, redis.sync().exists(crawl.accountingKey()));
        assertFalse(redis.sync().sismember(Keyspace.CRAWLS_FOREIGN, crawl.name()));
    }

    /** A crawl whose accounting hash Redis refuses is distrusted; once its queues hold nothing of it, it is announced. */
    @Test
    void aDrainedCrawlWhoseAccountingIsOfAnotherTypeIsAnnouncedWithNoPageCounted() {
        CrawlRef crawl = new CrawlRef(spider, "app", "hand-edited");
        enqueue(crawl, 0);
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open));
        redis.sync().del(crawl.accountingKey());
        redis.sync().set(crawl.accountingKey(), "a string written by hand");
        redis.sync().sadd(Keyspace.CRAWLS_FOREIGN, crawl.name());

        assertEquals(new Retirement.Retired(0), redis.await(counts.retireIfIdleAsync(crawl, quietBound(), true)));
        assertEquals(List.of("[\"" + spider + "\",\"app\",\"hand-edited\",0]"), completedEntries(crawl));
        assertEquals(0, redis.sync().exists(crawl.accountingKey()));
    }

    /** A foreign crawl that moved after a check found it drained is drained again only once two checks after that say so. */
    @Test
    void aForeignCrawlThatMovedAfterACheckFoundItDrainedNeedsTwoChecksAgain() {
        CrawlRef crawl = new CrawlRef(spider, "app", "resumed");
        redis.sync().sadd(Keyspace.CRAWLS_FOREIGN, crawl.name());
        assertFalse(counts.drained(crawl, serverTime()), "the first check that finds it drained");

        enqueue(crawl, 0);
        assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open)); // it resumed, and drained again
        assertFalse(counts.drained(crawl, serverTime()), "the first check since it moved");
        assertTrue(counts.drained(crawl, serverTime()), "the second");
    }

    private void enqueue(CrawlRef crawl, long expires) {
        enqueue(crawl, expires, "https://a.com/" + crawl.crawlid());
    }

    private void enqueue(CrawlRef crawl, long expires, String url) {
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem(url, crawl.appid(), crawl.crawlid(), 1, expires)).withTimeoutKey()));
    }

    private long startOf(CrawlRef crawl) {
        return Long.parseLong(redis.sync().hget(crawl.accountingKey(), "started"));
    }

    /** A quiet bound every change so far is before: the crawls are as quiet as they need to be. */
    private Instant quietBound() {
        return serverTime().plusSeconds(1);
    }

    private Instant serverTime() {
        List<String> time = redis.sync().time();
        return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1000);
    }

    private List<String> completedEntries(CrawlRef crawl) {
        return redis.sync().lrange(Keyspace.CRAWLS_COMPLETED, 0, -1).stream()
                .filter(entry -> entry.contains("\"" + crawl.spiderId() + "\"")).toList();
    }
}
