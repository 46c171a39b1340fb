package org.scrapycluster.redismonitor.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CommandStats;
import org.scrapycluster.redismonitor.QueueState;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;

/**
 * Quiet crawls that still have requests pending, which no crawler takes (docs/redis-monitor.md "complete"): a check
 * makes each active again, so that the checks that follow within the quiet period read nothing of it, and a crawl that
 * drains afterwards is announced all the same. Against a redis-server of its own, whose command counts only these
 * checks move. The quiet period is an hour; a crawl is made quiet by moving its score in {@code crawls:active} back,
 * as the passing of that hour would leave it.
 */
class BusyCrawlsTest {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));
    private static final Duration QUIET = Duration.ofHours(1);
    /** CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS: three hours. */
    private static final Duration FOREIGN_QUIET = Duration.ofHours(3);

    private EmbeddedRedis server;
    private RedisConnection redis;
    private RedisLocks locks;
    private CrawlCompletion completion;
    private final MockProducer<String, byte[]> kafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    private QueueState queues;

    @BeforeEach
    void startMonitor() {
        server = EmbeddedRedis.start(0, DataDirectory.temporary("busy-crawls"));
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", server.port()));
        locks = new RedisLocks(redis, Duration.ofSeconds(6));
        OutboundPublisher outbound = new OutboundPublisher(kafka, Topics.withPrefix("done"), false, Duration.ofSeconds(30), JSON,
                new TopicReach("done.outbound_firehose", (topic, wait) -> new CompletableFuture<>(), () -> { },
                        Clock.systemUTC(), Duration.ofSeconds(30)), Clock.systemUTC());
        completion = new CrawlCompletion(redis, locks, outbound, QUIET, FOREIGN_QUIET, new SimpleMeterRegistry());
        queues = new QueueState(redis, "link");
    }

    @AfterEach
    void stopMonitor() {
        completion.close();
        locks.close();
        redis.close();
        server.close();
    }

    @Test
    void aQuietCrawlWithRequestsPendingIsReadOncePerQuietPeriodNotAtEveryCheck() throws Exception {
        CrawlRef crawl = new CrawlRef("link", "app", "stalled");
        for (String domain : List.of("a.com", "b.com", "c.com")) {
            queues.seed(domain, queues.feedItem("https://" + domain + "/", "app", "stalled", 1, 0));
        }
        quietAQuietPeriodAgo(crawl);

        Instant before = serverTime();
        redis.sync().configResetstat();
        completion.announce();
        assertEquals(1, calls("hgetall"), "the first check reads its accounting");
        assertEquals(3, calls("zcard"), "and the length of each of its queues");
        double score = redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name());
        assertTrue(score >= before.toEpochMilli(), "made active again at the check");

        redis.sync().configResetstat();
        completion.announce();
        completion.announce();
        assertEquals(0, calls("hgetall"), "the checks within the quiet period pass it over");
        assertEquals(0, calls("zcard"));
        assertEquals(0, calls("evalsha"), "nor run a script for it");
        assertEquals(score, redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));
        assertEquals(List.of(), kafka.history(), "not announced");
    }

    @Test
    void aBusyCrawlThatDrainsIsAnnouncedOnceAQuietPeriodLater() throws Exception {
        CrawlRef crawl = new CrawlRef("link", "app", "resumed");
        queues.seed("a.com", queues.feedItem("https://a.com/", "app", "resumed", 1, 0));
        quietAQuietPeriodAgo(crawl);
        completion.announce();
        assertEquals(List.of(), kafka.history(), "its request is still queued");

        queues.ack(queues.handOut("a.com"), true);
        completion.announce();
        assertEquals(List.of(), kafka.history(), "drained just now: not quiet yet");
        quietAQuietPeriodAgo(crawl);
        completion.announce();
        completion.announce();

        assertEquals(List.of("resumed"), announced("crawlid"), "announced once");
        assertEquals(List.of("1"), announced("total_pages"));
    }

    /** A Python crawler may be fetching its last request, which is in no Redis key: looked at again the longer wait later. */
    @Test
    void aForeignCrawlFoundDrainedIsLookedAtAgainTheForeignQuietPeriodLater() throws Exception {
        CrawlRef crawl = new CrawlRef("link", "app", "python");
        redis.sync().sadd(Keyspace.CRAWLS_FOREIGN, crawl.name());
        quietAQuietPeriodAgo(crawl);

        Instant before = serverTime();
        completion.announce();
        Instant after = serverTime();
        assertEquals(List.of(), kafka.history(), "one look that finds nothing is not enough");
        double score = redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name());
        assertTrue(score >= before.plus(FOREIGN_QUIET).minus(QUIET).toEpochMilli()
                && score <= after.plus(FOREIGN_QUIET).minus(QUIET).toEpochMilli(),
                "looked at again a foreign quiet period later: " + score);
        completion.announce();
        assertEquals(List.of(), kafka.history(), "not before then");
        assertEquals(score, redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()));

        quietAQuietPeriodAgo(crawl); // that time has passed
        completion.announce();
        assertEquals(List.of("python"), announced("crawlid"));
    }

    /**
     * A Python crawler fetching at both looks: the page it fetched in between filed a link in the crawl's dupefilter, which
     * another took from the queue at once. Not announced until a look finds the dupefilter as the one before it did.
     */
    @Test
    void aForeignCrawlWhoseDupefilterGrewBetweenTwoLooksThatFoundNothingIsLookedAtAgain() throws Exception {
        CrawlRef crawl = new CrawlRef("link", "app", "fetching");
        String dupefilter = Keyspace.dupefilter("link", "fetching");
        redis.sync().sadd(Keyspace.CRAWLS_FOREIGN, crawl.name());
        redis.sync().sadd(dupefilter, "fingerprint-of-the-seed's-link");
        quietAQuietPeriodAgo(crawl);
        completion.announce();

        redis.sync().sadd(dupefilter, "fingerprint-of-the-next-link");
        quietAQuietPeriodAgo(crawl);
        completion.announce();
        assertEquals(List.of(), kafka.history(), "the crawl moved between the looks");
        assertTrue(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()) > serverTime().toEpochMilli(), "to be looked at again");

        quietAQuietPeriodAgo(crawl);
        completion.announce();
        assertEquals(List.of("fetching"), announced("crawlid"), "a third look finds what the second did");
    }

    @Test
    void everyBusyCrawlOfAPassIsPassedOverHoweverManyPagesOfCandidatesTheyFill() throws Exception {
        List<CrawlRef> crawls = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            CrawlRef crawl = new CrawlRef("link", "app", "stalled-" + i);
            queues.seed("a.com", queues.feedItem("https://a.com/" + i, "app", crawl.crawlid(), 1, 0));
            quietAQuietPeriodAgo(crawl);
            crawls.add(crawl);
        }
        CrawlRef drained = new CrawlRef("link", "app", "drained");
        redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, 0.0, drained.name()); // the last candidate, with nothing pending

        Instant before = serverTime();
        completion.announce();

        for (CrawlRef crawl : crawls) {
            assertTrue(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()) >= before.toEpochMilli(), crawl + " was passed over");
        }
        assertEquals(List.of("drained"), announced("crawlid"), "the candidate after them was judged too");
    }

    /** Moves the crawl's last activity a quiet period and a second back, as that much quiet would leave it. */
    private void quietAQuietPeriodAgo(CrawlRef crawl) {
        Instant quietSince = serverTime().minus(QUIET).minusSeconds(1);
        redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, (double) quietSince.toEpochMilli(), crawl.name());
    }

    private Instant serverTime() {
        List<String> time = redis.sync().time();
        return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1000);
    }

    /** Calls of {@code command} on the server since its statistics were last reset, scripts' calls included. */
    private long calls(String command) {
        return CommandStats.calls(redis.sync().info("commandstats"), command);
    }

    private List<String> announced(String field) throws JsonInputException {
        List<String> values = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            if (record.topic().equals("done.outbound_firehose")) {
                values.add(JSON.readTree(record.value()).path(field).asText());
            }
        }
        return values;
    }
}
