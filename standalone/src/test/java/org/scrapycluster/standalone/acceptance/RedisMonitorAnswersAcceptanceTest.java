package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.redismonitor.AnswerFixtures;
import org.scrapycluster.redismonitor.QueueState;
import org.scrapycluster.redismonitor.Texts;

/**
 * The Redis monitor's answer fixtures (the original's shapes, in {@code redis-monitor}'s
 * {@code answers/}) reached the way a client reaches them: the Redis state is built, the request
 * goes to {@code <prefix>.incoming}, the Kafka monitor writes the job key, the Redis monitor answers
 * on {@code <prefix>.outbound_firehose}, and the answer read there is compared with the fixture
 * field by field. Expiry and completion are announced without a request: a crawl fed through Kafka
 * with {@code expires} runs out, and a crawl of the test origin by a crawler node finishes.
 * (The stats answers, which need a keyspace of their own, are in {@link StatsAnswersAcceptanceTest}.)
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisMonitorAnswersAcceptanceTest {

    /** Two pages, the first linking to the second: a crawl of depth 1 publishes exactly two. */
    private static final SyntheticSite TWO_PAGES = SyntheticSite.builder().domains(1).pagesPerDomain(2).linksPerPage(1).build();
    /** Long enough for the Kafka monitor to queue a crawl's two requests before it expires, on most machines. */
    private static final Duration UNTIL_EXPIRY = Duration.ofSeconds(4);

    private EmbeddedStack stack;
    private TestOrigin origin;
    private AcceptanceCluster cluster;
    private String appid;
    private String spider;

    @BeforeAll
    void start(EmbeddedStack shared) {
        stack = shared;
        origin = TestOrigin.start(TWO_PAGES);
        cluster = new AcceptanceCluster(stack).throttle(1000, 1, false).startWithCrawlers(1);
    }

    @AfterAll
    void stop() {
        cluster.close();
        origin.close();
    }

    @BeforeEach
    void newApp() {
        appid = AcceptanceCluster.unique("app");
        spider = AcceptanceCluster.unique("spider");
    }

    @Test
    void infoAboutACrawlAndAnApp() {
        new QueueState(cluster.redis(), spider).seedInfoFixtureCrawls(appid);

        assertAnswered("info-crawl.json", Map.of(), "action", "info", "spiderid", spider, "crawlid", "c1");
        assertAnswered("info-app.json", Map.of(), "action", "info", "spiderid", spider);
        assertAnswered("info-crawl-unknown.json", Map.of(), "action", "info", "spiderid", spider, "crawlid", "nothing-queued");
    }

    @Test
    void stopPurgesACrawlFedThroughKafka() {
        for (String path : List.of("a.com/0", "a.com/1", "a.com/2", "b.com/1", "b.com/2")) {
            crawl("c1", "https://" + path, 0);
        }
        crawl("c2", "https://a.com/kept/1", 0);
        crawl("c2", "https://a.com/kept/2", 0);
        awaitPending("c1", 5);
        awaitPending("c2", 2);
        new QueueState(cluster.redis(), spider).handOut("b.com");

        assertAnswered("stop.json", Map.of(), "action", "stop", "spiderid", spider, "crawlid", "c1");
        assertEquals(2, cluster.redis().sync().zcard(new QueueKey(spider, "a.com").key()), "only c2 is left");
        assertEquals(0, cluster.redis().sync().zcard(new QueueKey(spider, "b.com").key()));
        assertAnswered("stop-without-crawlid.json", Map.of(), "action", "stop", "spiderid", spider);
    }

    @Test
    void aCrawlFedWithExpiresIsExpiredOnTime() {
        long from = AcceptanceCluster.now();
        long expires = from + UNTIL_EXPIRY.toSeconds();
        cluster.sendAll(List.of(crawlRequest("soon", "https://a.com/1", expires), crawlRequest("soon", "https://b.com/1", expires),
                crawlRequest("later", "https://a.com/later", 4_102_444_800L)));
        // Not awaitPending("soon", 2): a slow Kafka monitor may queue "soon" so near its expiry that it is purged
        // between two polls, and the wait would never end. The answer's total_expired says both were queued.
        awaitPending("later", 1);

        JsonNode answer = cluster.outbound().await(message -> "expired".equals(message.path("action").asText())
                && spider.equals(message.path("spiderid").asText()));
        AnswerFixtures.assertAnswer("expired.json", Map.of("crawlid", "soon", "appid", appid, "spiderid", spider), answer, from,
                AcceptanceCluster.now());
        assertTrue(answer.path("server_time").asLong() >= expires, "expired before its time: " + answer);
        assertEquals(1, cluster.redis().sync().zcard(new QueueKey(spider, "a.com").key()), "the later crawl is kept");
    }

    @Test
    void zookeeperRequestsEditTheDomainConfig() throws ZooKeeperConfigException {
        try (ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()),
                cluster.zookeeperNode())) {
            node.replaceText(Texts.resource("zookeeper/before.yml"));

            editDomain("domain-update", "cnn.com", "hits", 15, "scale", 0.9, "window", 60);
            assertEquals(Texts.resource("zookeeper/after-domain-update.yml"), node.readText());
            editDomain("blacklist-update", "ebay.com");
            editDomain("blacklist-update", "ebay.com");
            assertEquals(Texts.resource("zookeeper/after-blacklist-update.yml"), node.readText());
            editDomain("blacklist-remove", "ebay.com");
            editDomain("domain-remove", "dmoztools.net");
            editDomain("domain-remove", "never-there.com");
            assertEquals(Texts.resource("zookeeper/after-removals.yml"), node.readText());
        }
    }

    @Test
    void aFinishedCrawlIsAnnouncedComplete() {
        long from = AcceptanceCluster.now();
        cluster.send("url", origin.pageUrl(new PageRef(0, 0)), "appid", appid, "crawlid", "two-pages", "maxdepth", 1);

        JsonNode answer = cluster.outbound().await(message -> "complete".equals(message.path("action").asText())
                && appid.equals(message.path("appid").asText()));
        AnswerFixtures.assertAnswer("complete.json", Map.of("crawlid", "two-pages", "appid", appid, "spiderid", "link"), answer,
                from, AcceptanceCluster.now());
    }

    /** Feeds one crawl request of this test's app and spider through Kafka. */
    private void crawl(String crawlid, String url, long expires) {
        cluster.sendAll(List.of(crawlRequest(crawlid, url, expires)));
    }

    private Map<String, Object> crawlRequest(String crawlid, String url, long expires) {
        return AcceptanceCluster.request("url", url, "appid", appid, "crawlid", crawlid, "spiderid", spider, "expires", expires);
    }

    /** Waits until the Kafka monitor has queued {@code pending} requests of a crawl. */
    private void awaitPending(String crawlid, long pending) {
        CrawlRef crawl = new CrawlRef(spider, appid, crawlid);
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> new CrawlCounts(cluster.redis()).crawl(crawl)
                .map(count -> count.pending() == pending).orElse(false));
    }

    private void editDomain(String action, String domain, Object... numbers) {
        List<Object> request = new ArrayList<>(List.of("action", action, "domain", domain));
        request.addAll(List.of(numbers));
        assertAnswered("zookeeper.json", Map.of("action", action, "domain", domain), request.toArray());
    }

    /**
     * Sends {@code request} with this test's appid and a fresh uuid, and compares the answer
     * carrying that uuid with {@code fixture}, whose placeholders are {@code values}, the uuid, the
     * appid and the spider.
     */
    private void assertAnswered(String fixture, Map<String, String> values, Object... request) {
        String uuid = AcceptanceCluster.unique("uuid");
        List<Object> fields = new ArrayList<>(List.of("uuid", uuid, "appid", appid));
        fields.addAll(List.of(request));
        long from = AcceptanceCluster.now();
        cluster.send(fields.toArray());
        JsonNode answer = cluster.outbound().awaitUuid(uuid);
        Map<String, String> placeholders = new HashMap<>(values);
        placeholders.put("uuid", uuid);
        placeholders.put("appid", appid);
        placeholders.put("spiderid", spider);
        AnswerFixtures.assertAnswer(fixture, placeholders, answer, from, AcceptanceCluster.now());
    }
}
