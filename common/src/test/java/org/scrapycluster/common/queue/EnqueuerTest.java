package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisCommandExecutionException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.ChannelListener;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CommandStats;
import org.slf4j.LoggerFactory;

@ExtendWith(TestRedis.class)
class EnqueuerTest {

    private final RedisConnection redis;
    private final Enqueuer enqueuer;
    private final CrawlCounts counts;
    private final String spider = TestRedis.unique("enq");
    private final QueueKey queue = new QueueKey(spider, "ex1.com");
    private final CrawlRef crawl = new CrawlRef(spider, "app", "c1");

    EnqueuerTest(RedisConnection redis) {
        this.redis = redis;
        enqueuer = new Enqueuer(redis, false);
        counts = new CrawlCounts(redis);
    }

    private long serverSeconds() {
        return Long.parseLong(redis.sync().time().get(0));
    }

    private long serverMillis() {
        List<String> time = redis.sync().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Test
    void filesTheMemberWithScoreMinusPriorityAndMarksTheDomainActive() {
        String member = Members.feedItem("https://ex1.com/", "app", "c1", 50, 0);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member)));
        assertEquals(-50.0, redis.sync().zscore(queue.key(), member));
        Double active = redis.sync().zscore(Keyspace.activeDomains(spider), "ex1.com");
        assertTrue(Math.abs(active - serverSeconds() * 1000.0) < 5_000, "epoch ms of becoming non-empty");
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/2", "app", "c1", 50, 0)));
        assertEquals(active, redis.sync().zscore(Keyspace.activeDomains(spider), "ex1.com"), "ZADD NX keeps the first score");
        assertEquals(EnqueueOutcome.ALREADY_QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member)));
        assertEquals(2, counts.crawl(crawl).orElseThrow().pending());
    }

    @Test
    void aDomainIsPublishedWhenItBecomesActiveAndNotAgainWhileItIs() {
        AtomicInteger heard = new AtomicInteger();
        try (ChannelListener listener = redis.listen(Keyspace.activations(spider), heard::incrementAndGet,
                LoggerFactory.getLogger(EnqueuerTest.class))) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(listener::subscribed);
            long before = calls("publish");

            enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 50, 0)));
            enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/2", "app", "c1", 50, 0)));
            enqueuer.enqueue(EnqueueRequest.of(new QueueKey(spider, "ex2.com"), Members.feedItem("https://ex2.com/", "app", "c1", 50, 0)));

            assertEquals(2, calls("publish") - before, "ex1.com and ex2.com once each");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() == 3);
        }
    }

    @Test
    void aPublicationAnAclRefusesLeavesTheRequestFiled() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("enqueue-acl"));
             RedisConnection own = TestRedis.connect(server)) {
            own.sync().aclSetuser("default", AclSetuserArgs.Builder.resetChannels());
            String member = Members.feedItem("https://ex1.com/", "app", "c1", 50, 0);

            assertEquals(EnqueueOutcome.QUEUED, new Enqueuer(own, false).enqueue(EnqueueRequest.of(queue, member)));
            assertEquals(-50.0, own.sync().zscore(queue.key(), member));
            assertNotNull(own.sync().zscore(Keyspace.activeDomains(spider), "ex1.com"));
        }
    }

    @Test
    void aPageOfThousandsOfLinksIsFiledInSeveralCallsInItsOrder() {
        List<EnqueueRequest> links = new ArrayList<>();
        for (int i = 0; i < 2 * Enqueuer.MOST_PER_CALL + 500; i++) {
            links.add(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/" + i, "app", "c1", 1, 0)));
        }
        links.add(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/7", "app", "c1", 1, 0)));
        long before = scriptCalls();
        List<EnqueueOutcome> outcomes = enqueuer.enqueueBatch(links);
        assertEquals(3, scriptCalls() - before, "calls of at most " + Enqueuer.MOST_PER_CALL + " requests");
        assertEquals(links.size(), outcomes.size());
        assertEquals(EnqueueOutcome.QUEUED, outcomes.get(links.size() - 2));
        assertEquals(EnqueueOutcome.ALREADY_QUEUED, outcomes.getLast(), "the outcomes in the order of the requests");
        assertEquals(links.size() - 1, redis.sync().zcard(queue.key()));
        assertEquals(links.size() - 1, counts.crawl(crawl).orElseThrow().pending());
    }

    private long scriptCalls() {
        return calls("evalsha", "eval");
    }

    /** How often Redis has run {@code commands}, together, by its command statistics. */
    private long calls(String... commands) {
        return CommandStats.calls(redis.sync().info("commandstats"), commands);
    }

    @Test
    void countsEveryDomainAndPriorityForInfo() {
        long expires = serverSeconds() + 3600;
        QueueKey other = new QueueKey(spider, "other.org");
        enqueuer.enqueueBatch(List.of(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, expires)),
                EnqueueRequest.of(queue, Members.serializedRequest("https://ex1.com/a", "app", "c1", -9, expires)),
                EnqueueRequest.of(other, Members.serializedRequest("https://other.org/", "app", "c1", -9, expires)),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c2", 5, 0))));
        CrawlCount c1 = counts.crawl(crawl).orElseThrow();
        assertEquals(3, c1.pending());
        assertEquals(2, c1.totalDomains());
        assertEquals(Map.of("ex1.com", new CrawlCount.DomainCount(2, 1, -9), "other.org", new CrawlCount.DomainCount(1, -9, -9)),
                c1.domains());
        assertEquals(expires, c1.expires());
        assertTrue(c1.updated().isPresent());
        List<CrawlCount> app = counts.app(spider, "app");
        assertEquals(List.of("c1", "c2"), app.stream().map(count -> count.crawl().crawlid()).toList());
        assertEquals(Map.of("ex1.com", new CrawlCount.DomainCount(1, 5, 5)), app.get(1).domains());
        assertEquals(List.of(), counts.app(spider, "nobody"));
    }

    @Test
    void aRedisOutOfMemoryFailsTheCallRatherThanRefusingTheRequestsAsKeyConflicts() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("enqueue-oom"));
             RedisConnection full = TestRedis.connect(server)) {
            Enqueuer filing = new Enqueuer(full, false);
            EnqueueRequest request = EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0))
                    .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp", Duration.ofSeconds(600)));
            full.sync().configSet("maxmemory", "1"); // every write refused: Redis is above it
            RedisCommandExecutionException outOfMemory = assertThrows(RedisCommandExecutionException.class,
                    () -> filing.enqueueBatch(List.of(request)));
            assertTrue(outOfMemory.getMessage().startsWith("OOM"), outOfMemory.getMessage());
            assertFalse(RedisErrors.isRefusal(outOfMemory), "an outage to wait out, not a refusal of the request");

            full.sync().configSet("maxmemory", "0");
            assertEquals(List.of(EnqueueOutcome.QUEUED), filing.enqueueBatch(List.of(request)), "nothing of it was kept");
        }
    }

    @Test
    void aQueueOrDupefilterKeyOfAnotherTypeRefusesItsRequestAloneAndKeepsNothingOfIt() {
        QueueKey taken = new QueueKey(spider, "taken.com");
        redis.sync().sadd(taken.key(), "a set where a queue would be");
        redis.sync().zadd(Keyspace.dupefilter(spider, "queue"), 1, "a sorted set where a dupefilter would be");
        EnqueueRequest.Dupefilter dupefilter = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp-taken",
                Duration.ofSeconds(600));

        List<EnqueueOutcome> outcomes = enqueuer.enqueueBatch(List.of(
                EnqueueRequest.of(taken, Members.feedItem("https://taken.com/", "app", "c1", 1, 0)).withDupefilter(dupefilter),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "queue", 1, 0))
                        .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "queue"), "fp-q", Duration.ofSeconds(600))),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/ok", "app", "c1", 1, 0))));

        assertEquals(List.of(EnqueueOutcome.KEY_CONFLICT, EnqueueOutcome.KEY_CONFLICT, EnqueueOutcome.QUEUED), outcomes);
        assertEquals(0, redis.sync().sismember(Keyspace.dupefilter(spider, "c1"), "fp-taken") ? 1 : 0,
                "the fingerprint is taken back: the request is filed once the key is free");
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending(), "only the queued request is counted");
        redis.sync().del(taken.key());
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(
                EnqueueRequest.of(taken, Members.feedItem("https://taken.com/", "app", "c1", 1, 0)).withDupefilter(dupefilter)));
    }

    @Test
    void aBlacklistOrPageCounterRedisRefusesRefusesItsRequestAloneWithRedisWordsAndKeepsNothingOfIt() {
        String otherSpider = TestRedis.unique("enq-broken");
        QueueKey broken = new QueueKey(otherSpider, "ex1.com");
        redis.sync().set(Keyspace.blacklist(otherSpider), "a string where a set would be");
        String counter = Keyspace.domainMaxPageFilter(spider, "ex1.com", "c1");
        redis.sync().set(counter, "edited by hand");
        EnqueueRequest.Dupefilter dupefilter = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp-counted",
                Duration.ofSeconds(600));
        String global = Keyspace.globalPageCountFilter(spider, "ex1.com", "c1");
        EnqueueRequest counted = EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/counted", "app", "c1", 1, 0))
                .withDupefilter(dupefilter).withPageLimit(EnqueueRequest.PageLimit.global(global, 5, Duration.ofSeconds(600)))
                .withPageLimit(EnqueueRequest.PageLimit.perCrawl(counter, 5, Duration.ofSeconds(600)));

        List<EnqueueResult> results = redis.await(enqueuer.fileBatchAsync(List.of(
                EnqueueRequest.of(broken, Members.feedItem("https://ex1.com/stopped?", "app", "c1", 1, 0)),
                counted,
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/ok", "app", "c1", 1, 0)))));

        assertEquals(List.of(EnqueueOutcome.KEY_CONFLICT, EnqueueOutcome.KEY_CONFLICT, EnqueueOutcome.QUEUED),
                results.stream().map(EnqueueResult::outcome).toList());
        assertTrue(results.get(0).refusal().startsWith("WRONGTYPE"), results.get(0).refusal());
        assertEquals("the page counter " + counter + " holds no number", results.get(1).refusal());
        assertEquals("", results.get(2).refusal());
        assertFalse(redis.sync().sismember(dupefilter.key(), "fp-counted"), "the fingerprint is taken back");
        assertEquals("0", redis.sync().get(global), "so is its count against the limit before the refused one");
        assertEquals(1, redis.sync().zcard(queue.key()), "only the third request is queued");
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending(), "and counted");

        redis.sync().del(counter);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(counted), "filed once the key is repaired");
        assertEquals("1", redis.sync().get(global), "and counted once");
    }

    @Test
    void refusesStoppedExpiredAndInvalidRequests() {
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        assertEquals(EnqueueOutcome.BLACKLISTED,
                enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "stopped", 1, 0))));
        assertEquals(EnqueueOutcome.EXPIRED,
                enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, serverSeconds() - 1))));
        assertEquals(EnqueueOutcome.INVALID, enqueuer.enqueue(EnqueueRequest.of(queue, "not json")));
        assertEquals(EnqueueOutcome.INVALID, enqueuer.enqueue(EnqueueRequest.of(queue,
                "{\"url\":\"https://ex1.com/\",\"appid\":\"app\",\"crawlid\":\"c1\",\"priority\":\"high\"}")));
        assertEquals(0, redis.sync().exists(queue.key(), Keyspace.activeDomains(spider), crawl.accountingKey()));
    }

    @Test
    void registersSeedsInTheDupefilterSoALinkToThemIsNotFetchedTwice() {
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp1", Duration.ofSeconds(600));
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)).withDupefilter(seen)));
        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.serializedRequest("https://ex1.com/", "app", "c1", -9, 0)).withDupefilter(seen)));
        assertEquals(1, redis.sync().zcard(queue.key()));
        Long ttl = redis.sync().ttl(seen.key());
        assertTrue(ttl > 590 && ttl <= 600, ttl.toString());
    }

    @Test
    void aSeedIsADuplicateOnlyOfItsOwnCrawlNotOfAnotherAppsOfTheSameCrawlidNorOfOneFinished() {
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp1", Duration.ofSeconds(600));
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)).withDupefilter(seen).withTimeoutKey()));
        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 2, 0)).withDupefilter(seen).withTimeoutKey()),
                "the URL fed again to its running crawl");

        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "other", "c1", 1, 0)).withDupefilter(seen).withTimeoutKey()),
                "another app's crawl of the same crawlid shares the dupefilter (the original's key), not its seeds");
        assertEquals(2, redis.sync().zcard(queue.key()));
        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.serializedRequest("https://ex1.com/", "other", "c1", -9, 0)).withDupefilter(seen)),
                "a link to it is a duplicate whoever's crawl it comes from, as in the original");

        redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, crawl.name());
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 3, 0)).withDupefilter(seen).withTimeoutKey()),
                "a crawl finished (retired) since runs again");
        List<EnqueueResult> twice = enqueuer.fileBatchAsync(List.of(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "third", "c1", 1, 0)).withDupefilter(seen).withTimeoutKey(),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "third", "c1", 4, 0)).withDupefilter(seen).withTimeoutKey()))
                .join();
        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.DUPLICATE), twice.stream().map(EnqueueResult::outcome).toList(),
                "fed twice in one batch, its crawl queued it the first time");
    }

    @Test
    void writesTheTimeoutKeyOfACrawlThatExpires() {
        long expires = serverSeconds() + 3600;
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, expires)).withTimeoutKey());
        assertEquals(Long.toString(expires), redis.sync().get(crawl.timeoutKey()));
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c2", 1, 0)).withTimeoutKey());
        assertEquals(0, redis.sync().exists(new CrawlRef(spider, "app", "c2").timeoutKey()));
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c3", 1, expires)));
        assertEquals(0, redis.sync().exists(new CrawlRef(spider, "app", "c3").timeoutKey()));
    }

    @Test
    void aSeedSentAgainWithAnotherExpiryMovesTheTimeoutKeyThoughItIsNotQueuedAgain() {
        long first = serverSeconds() + 3600;
        long second = first + 1800;
        long third = first - 1800;
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp1", Duration.ofSeconds(600));
        String member = Members.feedItem("https://ex1.com/", "app", "c1", 1, first);
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member).withDupefilter(seen).withTimeoutKey()));

        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, second)).withDupefilter(seen).withTimeoutKey()));
        assertEquals(Long.toString(second), redis.sync().get(crawl.timeoutKey()), "overwritten, as the original's SET does");
        assertEquals(-1, redis.sync().ttl(crawl.timeoutKey()), "no expiry, as the original's");

        assertEquals(EnqueueOutcome.ALREADY_QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, first)).withTimeoutKey()));
        assertEquals(Long.toString(first), redis.sync().get(crawl.timeoutKey()));
        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, third)).withDupefilter(seen).withTimeoutKey()));
        assertEquals(Long.toString(third), redis.sync().get(crawl.timeoutKey()), "an earlier expiry too");

        assertEquals(1, redis.sync().zcard(queue.key()), "the queued seed alone, with the expires it was sent with");
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending());
        assertEquals(first, counts.crawl(crawl).orElseThrow().expires(), "the accounting's expires is that of the queued requests");
        assertEquals(EnqueueOutcome.DUPLICATE, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)).withDupefilter(seen).withTimeoutKey()));
        assertEquals(Long.toString(third), redis.sync().get(crawl.timeoutKey()), "an expires of 0 writes nothing, as the original's");
    }

    @Test
    void aRefusedSeedLeavesTheTimeoutKeyAsItWas() {
        long expires = serverSeconds() + 3600;
        redis.sync().set(crawl.timeoutKey(), Long.toString(expires));
        redis.sync().sadd(Keyspace.blacklist(spider), "app||c1");
        assertEquals(EnqueueOutcome.BLACKLISTED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, expires + 60)).withTimeoutKey()));
        redis.sync().srem(Keyspace.blacklist(spider), "app||c1");
        assertEquals(EnqueueOutcome.EXPIRED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, serverSeconds() - 1)).withTimeoutKey()));
        QueueKey taken = new QueueKey(spider, "taken.com");
        redis.sync().sadd(taken.key(), "a set where a queue would be");
        assertEquals(EnqueueOutcome.KEY_CONFLICT, enqueuer.enqueue(EnqueueRequest.of(taken,
                Members.feedItem("https://taken.com/", "app", "c1", 1, expires + 120)).withTimeoutKey()));
        assertEquals(Long.toString(expires), redis.sync().get(crawl.timeoutKey()));
    }

    @Test
    void aSeedWhoseExpiresHasPassedExpiresTheLiveCrawlAtOnceButIsNotQueued() {
        long later = serverSeconds() + 3600;
        long passed = serverSeconds() - 5;
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c1", 1, later)).withTimeoutKey()));

        EnqueueResult result = enqueuer.fileBatchAsync(List.of(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/again", "app", "c1", 1, passed)).withTimeoutKey())).join().getFirst();

        assertEquals(new EnqueueResult(EnqueueOutcome.EXPIRED, true), result);
        assertEquals(Long.toString(passed), redis.sync().get(crawl.timeoutKey()), "the Redis monitor expires it at its next look");
        assertEquals(1, redis.sync().zcard(queue.key()), "the expired seed itself is not queued");
        CrawlRef notLive = new CrawlRef(spider, "app", "c9");
        assertEquals(new EnqueueResult(EnqueueOutcome.EXPIRED, false), enqueuer.fileBatchAsync(List.of(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/", "app", "c9", 1, passed)).withTimeoutKey())).join().getFirst());
        assertEquals(0, redis.sync().exists(notLive.timeoutKey()), "a crawl that is not running is not started to be expired");
    }

    @Test
    void theScriptAnswersWhichRequestsOfABatchWroteTheirTimeoutKey() {
        long expires = serverSeconds() + 3600;
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "dup"), "fp1", Duration.ofSeconds(600));
        redis.sync().sadd(seen.key(), "fp1");
        redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, 1, new CrawlRef(spider, "app", "dup").name()); // the crawl that registered it runs
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        QueueKey taken = new QueueKey(spider, "taken.com");
        redis.sync().sadd(taken.key(), "a set where a queue would be");
        List<EnqueueRequest> batch = List.of(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "queued", 1, expires)).withTimeoutKey(),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "dup", 1, expires)).withDupefilter(seen).withTimeoutKey(),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "stopped", 1, expires)).withTimeoutKey(),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/a", "app", "unasked", 1, expires)),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/b", "app", "never", 1, 0)).withTimeoutKey(),
                EnqueueRequest.of(queue, "not json").withTimeoutKey(),
                EnqueueRequest.of(taken, Members.feedItem("https://taken.com/", "app", "conflict", 1, expires)).withTimeoutKey());

        List<EnqueueResult> results = enqueuer.fileBatchAsync(batch).join();

        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.DUPLICATE, EnqueueOutcome.BLACKLISTED, EnqueueOutcome.QUEUED,
                EnqueueOutcome.QUEUED, EnqueueOutcome.INVALID, EnqueueOutcome.KEY_CONFLICT), results.stream().map(EnqueueResult::outcome).toList());
        assertEquals(List.of(true, true, false, false, false, false, false), results.stream().map(EnqueueResult::timeoutWritten).toList());
        for (String crawlId : List.of("queued", "dup")) {
            assertEquals(Long.toString(expires), redis.sync().get(new CrawlRef(spider, "app", crawlId).timeoutKey()), crawlId);
        }
        for (String crawlId : List.of("stopped", "unasked", "never", "conflict")) {
            assertEquals(0, redis.sync().exists(new CrawlRef(spider, "app", crawlId).timeoutKey()), crawlId);
        }
    }

    @Test
    void anExpiryBeyondTheRangeOfALongStaysInTheFuture() {
        // the crawl schema puts no bound on expires; Lua's %d writes such a number as -9223372036854775808,
        // which a Redis monitor reads as long past and so expires (purges) the crawl at once
        String expires = "99999999999999999999";
        String member = "{\"url\":\"https://ex1.com/\",\"appid\":\"app\",\"crawlid\":\"c1\",\"priority\":1,\"expires\":" + expires + "}";
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member).withTimeoutKey()));

        assertEquals(expires, redis.sync().get(crawl.timeoutKey()), "as the request gives it, as the original writes it");
        long counted = counts.crawl(crawl).orElseThrow().expires();
        assertTrue(counted == 0 || counted > serverSeconds(), "info must not show a past expiry: " + counted);
    }

    /** The fraction of a first-in first-out score is the milliseconds since 2026-01-01 over 10^12: it wraps nowhere soon. */
    @Test
    void aFirstInFirstOutScoreCountsFromAFixedEpochWithoutWrapping() {
        Enqueuer fifo = new Enqueuer(redis, true);
        String member = Members.feedItem("https://ex1.com/epoch", "app", "c1", 5, 0);
        long before = serverMillis();
        fifo.enqueue(EnqueueRequest.of(queue, member));
        long after = serverMillis();

        double fraction = redis.sync().zscore(queue.key(), member) + 5;
        long filedMillis = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli() + Math.round(fraction * 1e12); // a score is a double
        assertTrue(filedMillis >= before && filedMillis <= after, fraction + ": " + before + " <= " + filedMillis + " <= " + after);
    }

    @Test
    void firstInFirstOutWithinAPriorityWhenAsked() throws InterruptedException {
        Enqueuer fifo = new Enqueuer(redis, true);
        List<String> members = new ArrayList<>();
        for (String path : List.of("z", "m", "a")) {
            String member = Members.feedItem("https://ex1.com/" + path, "app", "c1", 5, 0);
            members.add(member);
            assertEquals(EnqueueOutcome.QUEUED, fifo.enqueue(EnqueueRequest.of(queue, member)));
            Thread.sleep(3);
        }
        String urgent = Members.feedItem("https://ex1.com/urgent", "app", "c1", 6, 0);
        fifo.enqueue(EnqueueRequest.of(queue, urgent));
        ThrottledQueue throttle = new ThrottledQueue(redis);
        ThrottleSpec open = new ThrottleSpec("open-" + spider, 60, 100, false);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            order.add(assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, open)).member());
        }
        assertEquals(List.of(urgent, members.get(0), members.get(1), members.get(2)), order);
    }
    @Test
    void aPageLimitLetsLimitMinusOneRequestsPassAndRefusesTheRest() {
        String key = Keyspace.domainMaxPageFilter(spider, "ex1.com", "c1");
        EnqueueRequest.PageLimit limit = EnqueueRequest.PageLimit.perCrawl(key, 3, Duration.ofSeconds(600));
        List<EnqueueOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            outcomes.add(enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/" + i, "app", "c1", 1, 0))
                    .withPageLimit(limit)));
        }
        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.QUEUED, EnqueueOutcome.PAGE_LIMIT, EnqueueOutcome.PAGE_LIMIT,
                EnqueueOutcome.PAGE_LIMIT), outcomes, "with the seed, at most 3 pages");
        assertEquals("3", redis.sync().get(key), "the request that reaches the limit counts; later ones do not");
        assertEquals(2, redis.sync().zcard(queue.key()));
    }

    /** As a write sent again after a Redis failure, or a request without a dupefilter filed twice, would. */
    @Test
    void aRequestAlreadyQueuedCountsNoPage() {
        String key = Keyspace.domainMaxPageFilter(spider, "ex1.com", "c1");
        EnqueueRequest.PageLimit limit = EnqueueRequest.PageLimit.perCrawl(key, 3, Duration.ofSeconds(600));
        EnqueueRequest request = EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, 0)).withPageLimit(limit);
        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.ALREADY_QUEUED, EnqueueOutcome.ALREADY_QUEUED),
                redis.await(enqueuer.enqueueBatchAsync(List.of(request, request, request))));
        assertEquals("1", redis.sync().get(key), "counted once, for the request queued");
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue,
                Members.feedItem("https://ex1.com/next", "app", "c1", 1, 0)).withPageLimit(limit)), "the limit not reached by repeats");
    }

    @Test
    void theGlobalLimitRefreshesItsExpiryOnlyWhenItCounts() {
        String key = Keyspace.globalPageCountFilter(spider, "ex1.com", "c1");
        EnqueueRequest.PageLimit global = EnqueueRequest.PageLimit.global(key, 1, Duration.ofSeconds(600));
        assertEquals(EnqueueOutcome.PAGE_LIMIT, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0)).withPageLimit(global)));
        redis.sync().expire(key, 100);
        assertEquals(EnqueueOutcome.PAGE_LIMIT, enqueuer.enqueue(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/b", "app", "c1", 1, 0)).withPageLimit(global)));
        assertTrue(redis.sync().ttl(key) <= 100, "a refused request leaves the global counter's expiry");
        String perCrawl = Keyspace.domainMaxPageFilter(spider, "ex1.com", "c1");
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/c", "app", "c1", 1, 0))
                .withPageLimit(EnqueueRequest.PageLimit.perCrawl(perCrawl, 1, Duration.ofSeconds(600))));
        redis.sync().expire(perCrawl, 100);
        enqueuer.enqueue(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/d", "app", "c1", 1, 0))
                .withPageLimit(EnqueueRequest.PageLimit.perCrawl(perCrawl, 1, Duration.ofSeconds(600))));
        assertTrue(redis.sync().ttl(perCrawl) > 500, "a refused request refreshes the per-crawl counter's expiry");
    }

    @Test
    void aBatchIsFiledInOneCallInTheOriginalsOrderOfChecks() {
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp-refused", Duration.ofSeconds(600));
        QueueKey other = new QueueKey(spider, "other.org");
        List<EnqueueOutcome> outcomes = redis.await(enqueuer.enqueueBatchAsync(List.of(
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/1", "app", "c1", 1, 0)),
                EnqueueRequest.of(other, Members.feedItem("https://other.org/", "app", "c1", 1, 0)).withDupefilter(seen).withDomainRefused(),
                EnqueueRequest.of(other, Members.feedItem("https://other.org/again", "app", "c1", 1, 0)).withDupefilter(seen))));
        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.DOMAIN_BLACKLISTED, EnqueueOutcome.DUPLICATE), outcomes,
                "the dupefilter registers a request before the domain blacklist refuses it");
        assertEquals(0, redis.sync().exists(other.key()));
    }

    @Test
    void oneCallFilesManyRequestsEachAsASingleCallWould() {
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        EnqueueRequest.Dupefilter seen = new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, "c1"), "fp1", Duration.ofSeconds(600));
        String member = Members.feedItem("https://ex1.com/", "app", "c1", 1, 0);
        List<EnqueueRequest> requests = List.of(
                EnqueueRequest.of(queue, member).withDupefilter(seen),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/again", "app", "c1", 1, 0)).withDupefilter(seen),
                EnqueueRequest.of(queue, member),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "stopped", 1, 0)),
                EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/", "app", "c1", 1, serverSeconds() - 1)),
                EnqueueRequest.of(queue, "not json"));

        List<EnqueueOutcome> outcomes = redis.await(enqueuer.enqueueBatchAsync(requests));

        assertEquals(List.of(EnqueueOutcome.QUEUED, EnqueueOutcome.DUPLICATE, EnqueueOutcome.ALREADY_QUEUED, EnqueueOutcome.BLACKLISTED,
                EnqueueOutcome.EXPIRED, EnqueueOutcome.INVALID), outcomes);
        assertEquals(1, redis.sync().zcard(queue.key()));
        assertEquals(1, counts.crawl(crawl).orElseThrow().pending());
        assertEquals(List.of(), redis.await(enqueuer.enqueueBatchAsync(List.of())));
    }

    @Test
    void aCallsAccountingIsWhatItsRequestsFiledOneByOneWouldWrite() {
        String single = TestRedis.unique("one");
        String batched = TestRedis.unique("all");
        long expires = serverSeconds() + 3600;
        for (String spiderId : List.of(single, batched)) {
            List<EnqueueRequest> requests = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String domain = "ex" + i % 3 + ".com";
                String crawlId = "c" + i % 2;
                String member = i % 4 == 0
                        ? Members.serializedRequest("https://" + domain + "/" + i, "app", crawlId, -i % 3, expires + i)
                        : Members.feedItem("https://" + domain + "/" + i, "app", crawlId, i % 3, expires + i);
                requests.add(EnqueueRequest.of(new QueueKey(spiderId, domain), member)
                        .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spiderId, crawlId), "fp" + i % 5, Duration.ofSeconds(600))));
            }
            if (spiderId.equals(single)) {
                requests.forEach(enqueuer::enqueue);
            } else {
                redis.await(enqueuer.enqueueBatchAsync(requests));
            }
        }

        for (String crawlId : List.of("c0", "c1")) {
            assertEquals(accounting(single, crawlId), accounting(batched, crawlId), crawlId);
            assertTrue(redis.sync().ttl(Keyspace.dupefilter(batched, crawlId)) > 590, "the dupefilter's expiry is set");
        }
        assertEquals(redis.sync().smembers("crawls:" + single + ":app"), redis.sync().smembers("crawls:" + batched + ":app"));
        assertEquals(redis.sync().zrange(Keyspace.activeDomains(single), 0, -1).stream().sorted().toList(),
                redis.sync().zrange(Keyspace.activeDomains(batched), 0, -1).stream().sorted().toList());
        for (String crawlId : List.of("c0", "c1")) {
            assertTrue(redis.sync().zscore("crawls:active", batched + ":app:" + crawlId) != null, "the crawl is active");
        }
    }

    /** A crawl's accounting HASH without its {@code updated} time. */
    private Map<String, String> accounting(String spiderId, String crawlId) {
        Map<String, String> hash = new TreeMap<>(redis.sync().hgetall("crawl:" + spiderId + ":app:" + crawlId));
        assertTrue(hash.remove("updated") != null, "updated is written");
        assertTrue(hash.remove("started") != null, "started is written");
        return hash;
    }

    @Test
    void firstInFirstOutHoldsWithinOneCall() {
        Enqueuer fifo = new Enqueuer(redis, true);
        List<String> members = new ArrayList<>();
        for (String path : List.of("z", "m", "a", "q")) {
            members.add(Members.feedItem("https://ex1.com/" + path, "app", "c1", 5, 0));
        }
        fifo.enqueueBatch(members.stream().map(member -> EnqueueRequest.of(queue, member)).toList());

        assertEquals(members, redis.sync().zrange(queue.key(), 0, -1));
    }
}
