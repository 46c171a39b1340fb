package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Python and Java services on one Redis (docs/operations.md "Mixed Python and Java clusters"): the
 * Python side played by {@link PythonCrawler}, {@link PythonKafkaMonitor} and {@link PythonStopMonitor}, our side by the
 * enqueue, hand-out and acknowledgement scripts our Kafka monitor and crawlers run, and a real Redis
 * monitor answering. Every {@code info} answer's {@code total_pending} must equal the crawl's
 * requests actually queued or leased, counted here by reading every member, and a finished crawl is
 * announced {@code complete} exactly once.
 */
@ExtendWith(SharedStack.class)
class MixedClusterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * The tests' CRAWL_COMPLETE_QUIET_SECONDS and CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS: half a second, so that a crawl is
     * announced, and the three quiet periods
     * in which no second announcement may come are over, soon (the monitor checks every eighth of a second then).
     */
    private static final Duration QUIET = Duration.ofMillis(500);
    private static final String QUIET_SECONDS = Double.toString(QUIET.toMillis() / 1000.0);

    @Test
    void aCrawlFedThroughOurKafkaMonitorAndCrawledByAPythonCrawlerIsCountedAndCompletes(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", QUIET_SECONDS,
                "CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS", QUIET_SECONDS);
                PythonCrawler python = new PythonCrawler(stack.redisPort(), MonitorFixture.unique("spider"))) {
            fixture.startMonitor();
            QueueState ours = new QueueState(fixture.redis(), python.spider());
            String appid = MonitorFixture.unique("app");
            List<String> domains = new ArrayList<>(List.of("a.com", "b.com", "c.com"));
            for (String domain : domains) {
                ours.seed(domain, ours.feedItem("https://" + domain + "/", appid, "c1", 1, 0));
            }
            assertInfoIsTrue(fixture, python.spider(), appid, "c1", 3);

            JsonNode seed = python.pop("a.com").orElseThrow();
            assertInfoIsTrue(fixture, python.spider(), appid, "c1", 2);
            assertTrue(python.fileLink(seed, "a.com", "https://a.com/1"));
            assertTrue(python.fileLink(seed, "a.com", "https://a.com/2"));
            assertTrue(python.fileLink(seed, "d.com", "https://d.com/"));
            domains.add("d.com");
            assertInfoIsTrue(fixture, python.spider(), appid, "c1", 5);

            python.pop("b.com").orElseThrow();
            python.pop("a.com").orElseThrow();
            assertInfoIsTrue(fixture, python.spider(), appid, "c1", 3);
            for (String domain : domains) {
                while (python.pop(domain).isPresent()) {
                    // the links are at the crawl's depth limit: nothing more is filed
                }
            }
            assertInfoIsTrue(fixture, python.spider(), appid, "c1", 0);
            assertAnnouncedOnce(fixture, python.spider(), "c1");
        }
    }

    @Test
    void aCrawlFiledByAPythonKafkaMonitorAndCrawledByOurCrawlerIsCountedAndCompletes(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", QUIET_SECONDS,
                "CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS", QUIET_SECONDS);
                PythonKafkaMonitor python = new PythonKafkaMonitor(stack.redisPort(), MonitorFixture.unique("spider"))) {
            fixture.startMonitor();
            QueueState ours = new QueueState(fixture.redis(), python.spider());
            String appid = MonitorFixture.unique("app");
            python.file("a.com", "https://a.com/", appid, "c2", 1, 1, OneMonitorTest.FAR);
            python.file("b.com", "https://b.com/", appid, "c2", 1, 1, OneMonitorTest.FAR);
            python.file("b.com", "https://b.com/x", appid, "c2", 1, 1, OneMonitorTest.FAR);
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 3);

            String lease = ours.handOut("a.com");
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 3);
            ours.seed("a.com", ours.serializedRequest("https://a.com/1", appid, "c2", -9, OneMonitorTest.FAR));
            ours.seed("b.com", ours.serializedRequest("https://b.com/1", appid, "c2", -9, OneMonitorTest.FAR));
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 5);
            ours.ack(lease, true);
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 4);

            ours.ack(ours.handOut("b.com"), true);
            ours.ack(ours.handOut("b.com"), true);
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 2);
            ours.ack(ours.handOut("b.com"), true);
            ours.ack(ours.handOut("a.com"), true);
            assertInfoIsTrue(fixture, python.spider(), appid, "c2", 0);
            assertAnnouncedOnce(fixture, python.spider(), "c2");
        }
    }

    @Test
    void aStopPurgesWhatAPythonCrawlerFiledOutsideTheAccounting(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
                PythonCrawler python = new PythonCrawler(stack.redisPort(), MonitorFixture.unique("spider"))) {
            fixture.startMonitor();
            QueueState ours = new QueueState(fixture.redis(), python.spider());
            String appid = MonitorFixture.unique("app");
            ours.seed("a.com", ours.feedItem("https://a.com/", appid, "c3", 1, 0));
            ours.seed("b.com", ours.feedItem("https://b.com/", appid, "c3", 1, 0));
            JsonNode seed = python.pop("a.com").orElseThrow();
            assertTrue(python.fileLink(seed, "e.com", "https://e.com/"));
            assertEquals(2, requestsOf(fixture, python.spider(), "c3"));

            String uuid = MonitorFixture.unique("uuid");
            fixture.post(Keyspace.STOP_CRAWL.fill(python.spider(), appid, "c3"), uuid);
            assertEquals(2, fixture.answers().awaitUuid(uuid).path("total_purged").asLong());
            assertEquals(0, requestsOf(fixture, python.spider(), "c3"), "nothing of the stopped crawl is left, e.com included");
        }
    }

    /**
     * A crawl a Python Redis monitor stopped (blacklisted and purged behind the accounting's back, timeout key deleted)
     * is forgotten, not announced complete once its lease is acknowledged and nothing of it is left.
     */
    @Test
    void aCrawlAPythonRedisMonitorStoppedIsNotAnnouncedComplete(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", QUIET_SECONDS,
                "CRAWL_COMPLETE_FOREIGN_QUIET_SECONDS", QUIET_SECONDS);
                PythonStopMonitor python = new PythonStopMonitor(stack.redisPort(), MonitorFixture.unique("spider"))) {
            fixture.startMonitor();
            QueueState ours = new QueueState(fixture.redis(), python.spider());
            String appid = MonitorFixture.unique("app");
            ours.seed("a.com", ours.feedItem("https://a.com/", appid, "c4", 1, OneMonitorTest.FAR));
            ours.seed("b.com", ours.feedItem("https://b.com/", appid, "c4", 1, OneMonitorTest.FAR));
            String lease = ours.handOut("a.com");

            assertEquals(1, python.stop(appid, "c4"), "the queued request; the leased one is ours");
            ours.ack(lease, true);

            CrawlRef crawl = new CrawlRef(python.spider(), appid, "c4");
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> fixture.redis().sync().zscore(Keyspace.CRAWLS_ACTIVE, crawl.name()) == null);
            fixture.answers().readFor(QUIET.multipliedBy(3));
            assertEquals(List.of(), fixture.answers().answers().stream().filter(answer -> isCompletion(answer, python.spider(), "c4")).toList());
            assertTrue(fixture.redis().sync().lrange(Keyspace.CRAWLS_COMPLETED, 0, -1).stream().noneMatch(entry -> entry.contains(appid)));
        }
    }

    /** Asks the Redis monitor for the crawl's info and checks it against the queues and leases as they are. */
    private static void assertInfoIsTrue(MonitorFixture fixture, String spider, String appid, String crawlid, long expected) {
        long queued = requestsOf(fixture, spider, crawlid);
        assertEquals(expected, queued, "the test's own count of the crawl's requests");
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(Keyspace.INFO_CRAWL.fill(spider, appid, crawlid), uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertEquals(queued, answer.path("total_pending").asLong(), "total_pending of " + answer);
    }

    /** The crawl's requests in every queue of the spider and in its leases, read member by member. */
    private static long requestsOf(MonitorFixture fixture, String spider, String crawlid) {
        List<String> members = new ArrayList<>(fixture.redis().sync().hvals(Keyspace.leased(spider)));
        for (String queue : RedisKeys.scan(fixture.redis(), spider + ":*:queue")) {
            members.addAll(fixture.redis().sync().zrange(queue, 0, -1));
        }
        return members.stream().map(MixedClusterTest::crawlidOf).filter(crawlid::equals).count();
    }

    private static String crawlidOf(String member) {
        try {
            JsonNode request = MAPPER.readTree(member);
            return Optional.ofNullable(request.get("meta")).orElse(request).path("crawlid").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertAnnouncedOnce(MonitorFixture fixture, String spider, String crawlid) {
        fixture.answers().await(answer -> isCompletion(answer, spider, crawlid));
        fixture.answers().readFor(QUIET.multipliedBy(3));
        long announced = fixture.answers().answers().stream().filter(answer -> isCompletion(answer, spider, crawlid)).count();
        assertEquals(1, announced, "complete announcements of " + crawlid);
    }

    private static boolean isCompletion(JsonNode answer, String spider, String crawlid) {
        return "complete".equals(answer.path("action").asText()) && spider.equals(answer.path("spiderid").asText())
                && crawlid.equals(answer.path("crawlid").asText());
    }
}
