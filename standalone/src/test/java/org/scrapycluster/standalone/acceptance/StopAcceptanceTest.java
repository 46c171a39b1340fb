package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.RecordedRequest;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.redismonitor.OutboundAnswers;

/**
 * Stop, cluster-wide (docs/architecture.md, guarantee 5): a crawl of 60 pages fed through Kafka runs on two crawler
 * nodes, throttled to 4 pages a second per domain so that it is still running when a {@code stop}
 * request goes to Kafka. After the answer is on the outbound topic no page of the crawl reaches
 * the origin later than a second after it, nothing of the crawl is left queued or leased, and every
 * request is accounted for exactly once: fetched (those being fetched at the stop lose their lease, but their pages
 * still come) or counted in {@code total_purged}, so the two add up to the 60 requests fed.
 */
@ExtendWith(SharedStack.class)
class StopAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().domains(2).pagesPerDomain(30).linksPerPage(0).pageBytes(500)
            .build();
    private static final int FETCHED_BEFORE_STOP = 10;
    private static final long STOP_WITHIN_MILLIS = 1_000;
    /** How long after the answer the origin is watched for late fetches: twice the allowance. */
    private static final Duration WATCH = Duration.ofSeconds(2);

    @Test
    void noPageIsFetchedASecondAfterTheAnswerAndEveryRequestIsAccountedFor(EmbeddedStack stack) throws InterruptedException {
        String appid = AcceptanceCluster.unique("app");
        CrawlRef crawl = new CrawlRef("link", appid, "stopped");
        try (TestOrigin origin = TestOrigin.start(SITE);
             AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(4, 1, true).startWithCrawlers(2)) {
            cluster.feedEveryPage(origin, appid, crawl.crawlid());
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> pages(origin).size() >= FETCHED_BEFORE_STOP);
            assertEquals(2, RedisKeys.scan(cluster.redis(), "stats:crawler:*").stream()
                    .filter(key -> key.matches("stats:crawler:[^:]+:link:[0-9a-f]{12}")).count(), "the heartbeats of two crawler nodes");

            String uuid = AcceptanceCluster.unique("uuid");
            cluster.send("uuid", uuid, "appid", appid, "action", "stop", "spiderid", "link", "crawlid", crawl.crawlid());
            JsonNode answer = cluster.outbound().awaitUuid(uuid);
            long answeredAt = cluster.outbound().receivedWithTimes().stream().filter(received -> received.answer() == answer)
                    .mapToLong(OutboundAnswers.Received::timestamp).findFirst().orElseThrow();
            Thread.sleep(WATCH);

            List<RecordedRequest> fetched = pages(origin);
            for (RecordedRequest fetch : fetched) {
                assertTrue(fetch.time().toEpochMilli() <= answeredAt + STOP_WITHIN_MILLIS, fetch.uri() + " was fetched "
                        + (fetch.time().toEpochMilli() - answeredAt) + " ms after the stop answer");
            }
            assertEquals(fetched.size(), new HashSet<>(fetched.stream().map(fetch -> fetch.address() + fetch.uri()).toList()).size(),
                    "no page fetched twice");
            for (int domain = 0; domain < SITE.domains(); domain++) {
                assertEquals(0, cluster.redis().sync().zcard("link:" + origin.host(domain) + ".:queue"), "queued requests are gone");
            }
            assertEquals(0, cluster.redis().sync().hlen(Keyspace.leased("link")), "leased requests are gone");

            long purged = answer.get("total_purged").asLong();
            long published = new CrawlCounts(cluster.redis()).crawl(crawl).orElseThrow().pages();
            assertTrue(purged > 0, "the crawl was still running when stopped: " + answer);
            assertEquals(SITE.pages().size(), fetched.size() + purged, fetched.size() + " pages fetched and " + purged + " purged");
            assertTrue(fetched.size() >= published, fetched.size() + " pages fetched, " + published + " published");
        }
    }

    /** The pages of the site the origin served, oldest first (robots.txt left out). */
    private static List<RecordedRequest> pages(TestOrigin origin) {
        return origin.requests().matching(request -> request.path().startsWith(SyntheticSite.PAGE_PREFIX));
    }
}
