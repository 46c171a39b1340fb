package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;

/**
 * The info job against real queues: crawl-level and app-level answers in the original's shape,
 * counted from the accounting (leased requests included) and, for queues a Python Kafka monitor
 * wrote, from the members themselves.
 */
class InfoMonitorTest extends OneMonitorTest {

    @Test
    void answersForACrawlAndForAnAppFromTheAccounting() {
        queues.seedInfoFixtureCrawls(appid);

        assertInfo("info-crawl.json", Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "c1"));
        assertInfo("info-app.json", Keyspace.INFO_APP.fill(queues.spider(), appid));
    }

    @Test
    void countsQueuesWrittenWithoutAccountingByReadingThem() {
        queues.zadd("example.com", queues.feedItem("https://example.com/", appid, "c1", 1, FAR), 1);
        queues.zadd("example.com", queues.serializedRequest("https://example.com/a", appid, "c1", -9, FAR), -9);
        queues.zadd("other.org", queues.feedItem("https://other.org/", appid, "c1", -9, FAR), -9);
        queues.zadd("example.com", queues.feedItem("https://example.com/2", appid, "c2", 5, 0), 5);
        queues.zadd("example.com", queues.serializedRequest("https://example.com/2/a", appid, "c2", 5, 0), 5);
        queues.zadd("example.com", queues.feedItem("https://example.com/other-app", "someone-else", "c1", 3, 0), 3);
        queues.zadd("example.com", "not a request", 0);
        fixture.redis().sync().set("timeout:" + queues.spider() + ":" + appid + ":c1", Long.toString(FAR));
        queues.handOut("other.org");

        assertInfo("info-crawl.json", Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "c1"));
        assertInfo("info-app.json", Keyspace.INFO_APP.fill(queues.spider(), appid));
    }

    /** A Python Kafka monitor names a queue by tldextract, which keeps a '|' of the host: the lease id's domain has it too. */
    @Test
    void aLeasedRequestOfADomainWithABarCountsUnderThatDomain() {
        queues.zadd("a|b.com", queues.feedItem("http://a|b.com/", appid, "c1", 1, FAR), 1);
        queues.handOut("a|b.com");
        String uuid = MonitorFixture.unique("uuid");
        fixture.write(Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "c1"), uuid);
        JsonNode domains = fixture.answers().awaitUuid(uuid).get("domains");
        List<String> names = new ArrayList<>();
        domains.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("a|b.com"), names);
        assertEquals(1, domains.get("a|b.com").get("total").asInt());
    }

    @Test
    void aCrawlWithNothingQueuedHasNothingPending() {
        assertInfo("info-crawl-unknown.json", Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "nothing-queued"));
    }

    @Test
    void findsJobsWrittenWithoutASignal() {
        queues.seed("example.com", queues.feedItem("https://example.com/", appid, "c1", 1, FAR));
        queues.seed("example.com", queues.serializedRequest("https://example.com/a", appid, "c1", -9, FAR));
        queues.seed("other.org", queues.feedItem("https://other.org/", appid, "c1", -9, FAR));
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.write(Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "c1"), uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("info-crawl.json", Map.of("uuid", uuid, "appid", appid, "spiderid", queues.spider()), answer, from,
                MonitorFixture.now());
        fixture.awaitGone(Keyspace.INFO_CRAWL.fill(queues.spider(), appid, "c1"));
    }

    private void assertInfo(String fixtureName, String key) {
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(key, uuid);
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer(fixtureName, Map.of("uuid", uuid, "appid", appid, "spiderid", queues.spider()), answer, from, MonitorFixture.now());
        fixture.awaitGone(key);
    }
}
