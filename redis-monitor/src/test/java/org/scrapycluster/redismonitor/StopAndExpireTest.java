package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.queue.QueueKey;

/** Stop and expire against real queues and leases: what is purged, blacklisted, deleted and answered. */
class StopAndExpireTest extends OneMonitorTest {

    @Test
    void stopPurgesQueuedAndLeasedRequestsBlacklistsAndDeletesTheTimeout() {
        CrawlRef stopped = new CrawlRef(queues.spider(), appid, "c1");
        for (int i = 0; i < 3; i++) {
            queues.seed("a.com", queues.feedItem("https://a.com/" + i, appid, "c1", 5, FAR));
        }
        queues.seed("b.com", queues.serializedRequest("https://b.com/1", appid, "c1", 5, FAR));
        queues.seed("b.com", queues.serializedRequest("https://b.com/2", appid, "c1", 4, FAR));
        queues.seed("a.com", queues.feedItem("https://a.com/kept/1", appid, "c2", 1, 0));
        queues.seed("a.com", queues.feedItem("https://a.com/kept/2", appid, "c2", 1, 0));
        String leased = queues.handOut("b.com");
        assertTrue(fixture.redis().sync().exists(stopped.timeoutKey()) > 0);

        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(Keyspace.STOP_CRAWL.fill(queues.spider(), appid, "c1"), uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("stop.json", Map.of("uuid", uuid, "appid", appid, "spiderid", queues.spider()), answer, from, MonitorFixture.now());

        assertTrue(fixture.redis().sync().sismember(Keyspace.blacklist(queues.spider()), appid + "||c1"));
        assertEquals(2, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "a.com").key()), "only c2 is left");
        assertEquals(0, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "b.com").key()));
        assertEquals(0, fixture.redis().sync().hlen(Keyspace.leased(queues.spider())));
        assertEquals(0, fixture.redis().sync().exists(stopped.timeoutKey()));
        assertFalse(new Leases(fixture.redis()).ackAsync(queues.spider(), leased, Optional.empty(), true).join(), "the stopped crawl's lease is gone");
        assertEquals(0, new CrawlCounts(fixture.redis()).crawl(stopped).orElseThrow().pending());
        assertTrue(fixture.redis().sync().ttl(stopped.accountingKey()) > 0, "its accounting expires");
        assertFalse(fixture.redis().sync().sismember(Keyspace.crawlsOfApp(queues.spider(), appid), "c1"), "an app's info no longer reads it");
        assertNull(fixture.redis().sync().zscore(Keyspace.CRAWLS_ACTIVE, stopped.name()), "a stopped crawl is not announced complete");
        assertEquals(EnqueueOutcome.BLACKLISTED, new Enqueuer(fixture.redis(), false).enqueue(EnqueueRequest.of(
                new QueueKey(queues.spider(), "a.com"), queues.feedItem("https://a.com/late", appid, "c1", 5, FAR))));
        fixture.awaitGone(Keyspace.STOP_CRAWL.fill(queues.spider(), appid, "c1"));
    }

    @Test
    void aStopWithoutCrawlidIsAnsweredWithAnError() {
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        String key = "stop:" + queues.spider() + ":" + appid;
        fixture.post(key, uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("stop-without-crawlid.json", Map.of("uuid", uuid, "appid", appid, "spiderid", queues.spider()), answer,
                from, MonitorFixture.now());
        fixture.awaitGone(key);
    }

    @Test
    void expiresACrawlOnceItsTimeHasComeAndNotBefore() {
        CrawlRef later = new CrawlRef(queues.spider(), appid, "later");
        queues.seed("a.com", queues.feedItem("https://a.com/later", appid, "later", 1, FAR));
        long expires = MonitorFixture.now() + 2;
        CrawlRef soon = new CrawlRef(queues.spider(), appid, "soon");
        queues.seed("a.com", queues.feedItem("https://a.com/1", appid, "soon", 1, expires));
        queues.seed("b.com", queues.serializedRequest("https://b.com/1", appid, "soon", 1, expires));
        long from = MonitorFixture.now();

        JsonNode answer = fixture.answers().await(message -> "expired".equals(message.path("action").asText()));
        assertAnswer("expired.json", Map.of("crawlid", "soon", "appid", appid, "spiderid", queues.spider()), answer, from,
                MonitorFixture.now());
        assertTrue(answer.path("server_time").asLong() >= expires, "expired before its time: " + answer);
        assertTrue(fixture.redis().sync().sismember(Keyspace.blacklist(queues.spider()), soon.blacklistEntry()));
        fixture.awaitGone(soon.timeoutKey());

        assertEquals(1, fixture.answers().readFor(Duration.ofMillis(500)).stream()
                .filter(message -> queues.spider().equals(message.path("spiderid").asText())).count(),
                "the later crawl is not expired: " + fixture.answers().answers());
        assertEquals(String.valueOf(FAR), fixture.redis().sync().get(later.timeoutKey()));
        assertEquals(1, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "a.com").key()));
    }

    @Test
    void expiresCrawlsQueuedWithoutAccounting() {
        queues.zadd("a.com", queues.feedItem("https://a.com/1", appid, "py", 1, 1), 1);
        queues.zadd("b.com", queues.serializedRequest("https://b.com/1", appid, "py", 1, 1), 1);
        queues.zadd("b.com", queues.feedItem("https://b.com/other", appid, "other", 1, 0), 1);
        long from = MonitorFixture.now();
        fixture.write("timeout:" + queues.spider() + ":" + appid + ":py", "1.5");
        JsonNode answer = fixture.answers().await(message -> "expired".equals(message.path("action").asText()));
        assertAnswer("expired.json", Map.of("crawlid", "py", "appid", appid, "spiderid", queues.spider()), answer, from,
                MonitorFixture.now());
        assertEquals(1, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "b.com").key()));
    }

    @Test
    void aKeyOfAnotherTypeThatAJobPatternMatchesIsPassedOverAndExpiriesAreStillFound() {
        // a crawl of a spider named info queues into info:<domain>:queue, a sorted set that info:*:* matches
        String domain = MonitorFixture.unique("d") + ".com";
        QueueState infoSpider = new QueueState(fixture.redis(), "info");
        infoSpider.seed(domain, infoSpider.feedItem("https://" + domain + "/", appid, "c1", 1, 0));
        try {
            MonitorFixture.sleep(Duration.ofSeconds(2)); // the scan has met info:<domain>:queue by now
            fixture.write(Keyspace.TIMEOUT.fill(queues.spider(), appid, "c9"), "1"); // only the scan finds an expiry
            JsonNode answer = fixture.answers().await(message -> "expired".equals(message.path("action").asText())
                    && appid.equals(message.path("appid").asText()));
            assertEquals("c9", answer.path("crawlid").asText());
        } finally {
            fixture.redis().sync().del(Keyspace.queue("info", domain), Keyspace.crawlsOfApp("info", appid),
                    Keyspace.ACCOUNTING.fill("info", appid, "c1"));
        }
    }
}
