package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ch.qos.logback.classic.Level;
import io.netty.handler.codec.http.HttpMethod;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.CommandStats;
import org.scrapycluster.embedded.junit.ManualClock;
import org.scrapycluster.rest.http.HttpCall;

/**
 * The live view against a redis-server of its own (so that its command count is this test's alone),
 * holding the keys the services write: one refresh reads them into one snapshot, and a hundred
 * concurrent {@code GET /live} calls read nothing more from Redis.
 */
class LiveViewTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedRedis server;
    private static RedisConnection redis;

    @BeforeAll
    static void startRedis() {
        server = EmbeddedRedis.start(0, DataDirectory.temporary("live-view"));
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", server.port()));
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
        server.close();
    }

    /** A Kafka monitor's rate is of the requests it took, a Redis monitor's of the jobs it ran, each over all its nodes. */
    @Test
    void eachMonitorsRateSaysWhatItCounts() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        redis.sync().set("stats:kafka-monitor:self:hostB:ba9876543210", now + ".000000");
        redis.sync().set("stats:redis-monitor:self:hostC:cd9876543210", now + ".000000");
        for (String service : List.of("kafka-monitor", "redis-monitor")) {
            redis.sync().hset(Keyspace.statsBuckets("stats:" + service + ":total:900"), Map.of(Long.toString(now / 15 * 15), "30"));
        }
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        Map<String, String> rateOf = new HashMap<>();
        for (JsonNode node : refreshed(live).get("nodes")) {
            assertTrue(node.get("rate").asDouble() > 0, node.toString());
            rateOf.put(node.get("service").asText(), node.get("rate_of").asText());
        }
        assertEquals(Map.of("kafka-monitor", "requests/s, all nodes", "redis-monitor", "jobs/s, all nodes"), rateOf);
    }

    @Test
    void oneRefreshReadsTheClusterAndEveryPageIsServedFromIt() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        redis.sync().set("stats:crawler:hostA:link:0123456789ab", now + ".250000");
        redis.sync().set("stats:kafka-monitor:self:hostB:ba9876543210", (now - 200) + ".000000");
        redis.sync().hset(Keyspace.statsBuckets("stats:crawler:hostA:link:200:900"), Map.of(Long.toString(now / 15 * 15), "30"));
        // an earlier build kept its buckets at the original's name
        redis.sync().hset("stats:crawler:hostA:link:504:900", Map.of(Long.toString(now / 15 * 15 - 15), "3"));
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:crawl1");
        redis.sync().hset("crawl:link:app1:crawl1", Map.of("pending", "3", "pages", "5", "expires", "0",
                "example.com|1", "2", "other.org|1", "1", "updated", Long.toString(now * 1000)));
        for (int hit = 0; hit < 10; hit++) {
            redis.sync().zadd("link:1.2.3.4:example.com:throttle_window", now - hit, "hit" + hit);
        }
        redis.sync().setex("link:1.2.3.4:other.org:throttle_pause", 30, "1");

        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        live.crawlEnds().accept(JSON.readTree(
                "{\"action\":\"complete\",\"appid\":\"app1\",\"crawlid\":\"old\",\"spiderid\":\"link\",\"server_time\":" + now
                        + ",\"total_pages\":7}"));
        live.refresh();

        long before = commandsProcessed();
        List<Future<byte[]>> pages = new ArrayList<>();
        try (ExecutorService browsers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int page = 0; page < 100; page++) {
                pages.add(browsers.submit(() -> live.endpoint().answer(new HttpCall(HttpMethod.GET, "/live", null, null)).body()));
            }
        }
        long after = commandsProcessed();
        assertEquals(1, after - before, "100 pages cost Redis nothing but the INFO that counted them");
        assertEquals(1, live.refreshes());
        for (Future<byte[]> page : pages) {
            assertEquals(JSON.readTree(pages.getFirst().get()), JSON.readTree(page.get()));
        }

        JsonNode view = JSON.readTree(pages.getFirst().get());
        assertTrue(view.get("error").isNull(), view.toString());
        assertEquals(2, view.get("nodes").size());
        JsonNode crawler = view.get("nodes").get(0);
        assertEquals("crawler", crawler.get("service").asText());
        assertEquals("hostA", crawler.get("host").asText());
        assertEquals("link", crawler.get("spider").asText());
        assertTrue(!crawler.get("stale").asBoolean() && crawler.get("rate").asDouble() > 0, crawler.toString());
        assertTrue(view.get("nodes").get(1).get("stale").asBoolean(), "a beat 200 s old is stale");

        JsonNode crawl = view.get("crawls").get(0);
        assertEquals("crawl1", crawl.get("crawlid").asText());
        assertEquals(5, crawl.get("pages").asLong());
        assertEquals(3, crawl.get("pending").asLong());
        assertEquals(3, view.get("backlog").asLong());
        assertEquals(1, view.get("active_crawls").asLong());
        assertFalse(crawl.get("start_known").asBoolean(), "active at the gateway's first reading: started earlier");

        assertFalse(view.get("domains_partial").asBoolean(), "every field of the accounting was read");
        assertEquals("example.com", view.get("domains").get(0).get("domain").asText(), "the largest backlog first");
        assertEquals("throttled", view.get("domains").get(0).get("state").asText(), "10 hits of the default 10 per 60 s");
        assertEquals(10, view.get("domains").get(0).get("used").asLong());
        assertEquals("backing off", view.get("domains").get(1).get("state").asText());
        assertEquals(2, view.at("/charts/5m/queues/waiting/0").asLong(), "both domains with work wait on their throttle");

        JsonNode pagesChart = view.at("/charts/5m/pages");
        assertEquals(15, pagesChart.get("bucket_seconds").asLong());
        JsonNode ok = pagesChart.get("2xx");
        assertTrue(ok.get(ok.size() - 1).asDouble() > 0, "the current bucket's 30 responses: " + ok);
        JsonNode errors = pagesChart.get("errors");
        assertEquals(0.2, errors.get(errors.size() - 2).asDouble(), 1e-9, "3 failed downloads in the last full 15 s");
        assertEquals(15, view.at("/charts/1h/pages/bucket_seconds").asLong(),
                "no 3600 s window is recorded, so the hour is charted from the largest window there is");

        assertEquals("old", view.at("/completed/0/crawlid").asText());
        assertEquals(7, view.at("/completed/0/total_pages").asLong());
    }

    /**
     * The completion check scores a crawl whose requests wait (on a throttle, for a crawler of its spider) active again
     * every quiet period, and a foreign crawl it found drained ahead, when it is to be looked at again: neither is an
     * activity. Shown is when our services last moved a request of the crawl, else its score, no later than now.
     */
    @Test
    void aCrawlsLastActivityIsItsAccountingsNotTheCompletionChecksScore() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        redis.sync().zadd("crawls:active", (now + 3_600) * 1000.0, "link:app1:python");
        redis.sync().hset("crawl:link:app1:python", Map.of("pending", "0", "pages", "2", "expires", "0"));
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:waiting");
        redis.sync().hset("crawl:link:app1:waiting",
                Map.of("pending", "3", "pages", "1", "expires", "0", "updated", Long.toString((now - 600) * 1000)));
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        live.refresh();

        byte[] page = live.endpoint().answer(new HttpCall(HttpMethod.GET, "/live", null, null)).body();
        Map<String, Long> activity = new HashMap<>();
        JSON.readTree(page).get("crawls")
                .forEach(crawl -> activity.put(crawl.get("crawlid").asText(), crawl.get("last_activity").asLong()));
        assertEquals(now - 600, activity.get("waiting"), "its requests last moved ten minutes ago");
        assertTrue(activity.get("python") <= System.currentTimeMillis() / 1000, "no activity later than now: " + activity);
    }

    /**
     * With more crawls active than listed, a crawl whose requests wait, which the completion check scores anew every quiet
     * period, does not displace a listed crawl that moved more recently: the rows do not take turns at every refresh.
     */
    @Test
    void beyondTheLimitAListedCrawlStaysUntilOneThatMovedMoreRecentlyTakesItsPlace() throws Exception {
        long now = System.currentTimeMillis();
        redis.sync().flushdb();
        listedCrawl("moving", now, now);
        listedCrawl("parked", now - 1, now - 600_000);
        listedCrawl("checked", now - 2, now - 900_000);
        Settings settings = settings("3600", "3600", Map.of("LIVE_MAX_CRAWLS", "2"));
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        assertEquals(Set.of("moving", "parked"), crawlids(refreshed(live)));

        redis.sync().zadd("crawls:active", now + 1.0, "link:app1:checked"); // a completion check found its requests waiting
        JsonNode view = refreshed(live);
        assertEquals(Set.of("moving", "parked"), crawlids(view), "parked moved more recently than checked");
        assertEquals(3, view.get("active_crawls").asLong());

        redis.sync().zrem("crawls:active", "link:app1:parked"); // retired
        assertEquals(Set.of("moving", "checked"), crawlids(refreshed(live)));
        listedCrawl("fresh", now + 2, now + 2);
        assertEquals(Set.of("fresh", "moving"), crawlids(refreshed(live)), "a crawl that moved takes the place of one that waits");
    }

    /** The backlog chart counts every spider's queued and leased requests, not only those of the crawls listed. */
    @Test
    void theBacklogChartedIsEverySpidersHoweverFewCrawlsAreListed() throws Exception {
        long now = System.currentTimeMillis();
        redis.sync().flushdb();
        listedCrawl("listed", now, now);
        redis.sync().hset("link:queue_lengths", Map.of("a.com", "3", "b.com", "4"));
        redis.sync().hset("link:leased", Map.of("a.com|-1|n1", "{}", "b.com|-1|n1", "{}"));
        redis.sync().hset("other:queue_lengths", Map.of("c.com", "5"));
        Settings settings = settings("3600", "3600", Map.of("LIVE_MAX_CRAWLS", "1"));
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());

        JsonNode view = refreshed(live);
        assertEquals(1, view.get("backlog").asLong(), "the listed crawl's pending");
        assertEquals(14, view.get("backlog_total").asLong(), "3 + 4 + 5 queued, 2 leased");
        JsonNode charted = view.at("/charts/5m/queues/backlog");
        assertEquals(14, charted.get(charted.size() - 1).asLong(), view.at("/charts/5m/queues").toString());
    }

    private static void listedCrawl(String crawlid, double score, long updated) {
        redis.sync().zadd("crawls:active", score, "link:app1:" + crawlid);
        redis.sync().hset("crawl:link:app1:" + crawlid, Map.of("pending", "1", "pages", "0", "expires", "0",
                "updated", Long.toString(updated)));
    }

    private static Set<String> crawlids(JsonNode view) {
        Set<String> crawlids = new HashSet<>();
        view.get("crawls").forEach(crawl -> crawlids.add(crawl.get("crawlid").asText()));
        return crawlids;
    }

    /** The hits in a domain's window are counted by Redis's clock, which stamps them, not by the gateway's, which may be off. */
    @Test
    void aDomainsHitsAreCountedByRedisClock() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        for (int hit = 0; hit < 4; hit++) {
            redis.sync().zadd("link:1.2.3.4:example.com:throttle_window", now - hit, "hit" + hit);
        }
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:crawl1");
        redis.sync().hset("crawl:link:app1:crawl1", Map.of("pending", "1", "pages", "0", "expires", "0", "example.com|1", "1",
                "updated", Long.toString(now * 1000)));
        Settings settings = settings();
        Clock anHourAhead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
        try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), anHourAhead)) {
            JsonNode view = refreshed(live);
            JsonNode domain = view.get("domains").get(0);
            assertEquals("example.com", domain.get("domain").asText(), view.toString());
            assertEquals(4, domain.get("used").asLong(), "the four hits of the last 60 s by Redis's clock");
        }
    }

    /**
     * A broad crawl (one accounting field and one throttle window per domain): a refresh reads its totals with one
     * HMGET, at most LIVE_MAX_ACCOUNTING_FIELDS of its domain fields, and the throttle windows of those domains only.
     */
    @Test
    void aBroadCrawlCostsARefreshOnlyTheFieldsItsBudgetAllows() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        int domains = 5000;
        Map<String, String> accounting = new HashMap<>(Map.of("pending", Integer.toString(domains), "pages", "7", "expires", "0",
                "updated", Long.toString(now * 1000)));
        for (int domain = 0; domain < domains; domain++) {
            accounting.put("d" + domain + ".example.com|1", "1");
            redis.async().zadd("link:d" + domain + ".example.com:throttle_window", now, "hit");
        }
        redis.sync().hset("crawl:link:app1:broad", accounting);
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:broad");
        assertEquals(domains, redis.sync().keys("*:throttle_window").size());

        Settings settings = settings("3600", "3600", Map.of("LIVE_MAX_ACCOUNTING_FIELDS", "500"));
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        redis.sync().configResetstat();
        live.refresh();

        assertEquals(0, calls("hgetall"), "no crawl's accounting is read whole");
        long zcounts = calls("zcount");
        assertTrue(zcounts > 0 && zcounts <= 1000, "the windows of the domains read, not of all " + domains + ": " + zcounts);

        JsonNode view = ask(live);
        assertTrue(view.get("error").isNull(), view.toString());
        assertEquals(domains, view.at("/crawls/0/pending").asLong(), "the totals are read in full");
        assertEquals(7, view.at("/crawls/0/pages").asLong());
        assertEquals(domains, view.get("backlog").asLong());
        assertTrue(view.get("domains_partial").asBoolean(), view.toString());
        assertEquals(25, view.get("domains").size(), "LIVE_MAX_DOMAINS of the domains read");
    }

    /**
     * LIVE_MAX_ACCOUNTING_FIELDS caps the domain fields summed, not the fields Redis answers: HSCAN's COUNT is a hint,
     * and a small hash (a listpack) comes back whole whatever it asks; the crawls' own fields do not count against it.
     */
    @Test
    void theAccountingBudgetIsAHardCapOnTheDomainFieldsSummed() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        writeAccounting("link:app1:newer", now * 1000.0, "newer", 2, now);
        writeAccounting("link:app1:older", now * 1000.0 - 1, "older", 60, now);

        JsonNode capped = refreshedView(10);
        assertEquals(10, capped.get("domains").size(), "the domains summed, though Redis answered every field of both hashes");
        assertTrue(capped.get("domains_partial").asBoolean());
        assertEquals(2, domainsNamed(capped, "newer"), "the most recently active crawl first, its own fields not counted");

        JsonNode whole = refreshedView(62);
        assertEquals(62, whole.get("domains").size());
        assertFalse(whole.get("domains_partial").asBoolean(), "a cap of exactly their domain fields reads them all");
    }

    /** A crawl's accounting with its own fields and one field of {@code domains} domains, each with one request. */
    private static void writeAccounting(String crawl, double lastActivity, String domainPrefix, int domains, long now) {
        Map<String, String> accounting = new HashMap<>(Map.of("pending", Integer.toString(domains), "pages", "0", "expires", "0",
                "updated", Long.toString(now * 1000)));
        for (int domain = 0; domain < domains; domain++) {
            accounting.put(domainPrefix + domain + ".example.com|1", "1");
        }
        redis.sync().hset("crawl:" + crawl, accounting);
        redis.sync().zadd("crawls:active", lastActivity, crawl);
    }

    /** The live view after one refresh that sums at most {@code maxFields} accounting fields, every domain read listed. */
    private static JsonNode refreshedView(int maxFields) throws Exception {
        Settings settings = settings("3600", "3600", Map.of("LIVE_MAX_ACCOUNTING_FIELDS", Integer.toString(maxFields), "LIVE_MAX_DOMAINS", "100"));
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        return refreshed(live);
    }

    private static long domainsNamed(JsonNode view, String prefix) {
        long count = 0;
        for (JsonNode domain : view.get("domains")) {
            if (domain.get("domain").asText().startsWith(prefix)) {
                count++;
            }
        }
        return count;
    }

    @Test
    void keysRedisRefusesAreLeftOutAndTheRestIsShown() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:broken");
        redis.sync().set("crawl:link:app1:broken", "not a hash");
        redis.sync().zadd("crawls:active", now * 1000.0 - 1, "link:app1:crawl1");
        redis.sync().hset("crawl:link:app1:crawl1", Map.of("pending", "3", "pages", "5", "expires", "0",
                "example.com|1", "3", "updated", Long.toString(now * 1000)));
        redis.sync().set("link:1.2.3.4:bad.org:throttle_window", "not a sorted set");
        redis.sync().set("broken:queue_lengths", "not a hash");
        redis.sync().hset("link:queue_lengths", Map.of("example.com", "3"));
        for (int hit = 0; hit < 10; hit++) {
            redis.sync().zadd("link:1.2.3.4:example.com:throttle_window", now - hit, "hit" + hit);
        }

        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        JsonNode view = refreshed(live);
        assertTrue(view.get("error").isNull(), view.toString());
        assertEquals(1, view.get("crawls").size(), view.toString());
        assertEquals("crawl1", view.at("/crawls/0/crawlid").asText());
        assertEquals("example.com", view.at("/domains/0/domain").asText());
        assertEquals("throttled", view.at("/domains/0/state").asText());
        assertEquals(3, view.get("backlog_total").asLong(), "the spider whose lengths Redis refuses left out");
    }

    @Test
    void aCrawlSeenToStartHasItsDurationAndOneAlreadyActiveAtTheFirstReadingHasNone() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        active("before", now);
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        live.refresh();
        active("after", now);
        JsonNode crawls = refreshed(live).get("crawls");
        Map<String, Boolean> startKnown = new HashMap<>();
        crawls.forEach(crawl -> startKnown.put(crawl.get("crawlid").asText(), crawl.get("start_known").asBoolean()));
        assertEquals(Map.of("before", false, "after", true), startKnown);

        for (String crawlid : List.of("before", "after")) {
            live.crawlEnds().accept(JSON.readTree("{\"action\":\"complete\",\"appid\":\"app1\",\"crawlid\":\"" + crawlid
                    + "\",\"spiderid\":\"link\",\"server_time\":" + (now + 60) + ",\"total_pages\":1}"));
        }
        JsonNode completed = refreshed(live).get("completed");
        assertEquals("after", completed.at("/0/crawlid").asText());
        assertTrue(completed.at("/0/duration_seconds").asLong() >= 59, completed.toString());
        assertTrue(completed.at("/1/duration_seconds").isNull(), "when the crawl started is not known: " + completed);
    }

    @Test
    void aCrawlWhoseAccountingRecordsItsStartShowsItFromTheFirstReading() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        active("recorded", now);
        redis.sync().hset("crawl:link:app1:recorded", "started", Long.toString((now - 600) * 1000));
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        JsonNode crawl = refreshed(live).at("/crawls/0");
        assertTrue(crawl.get("start_known").asBoolean(), crawl.toString());
        assertEquals(now - 600, crawl.get("started").asLong());

        live.crawlEnds().accept(JSON.readTree("{\"action\":\"complete\",\"appid\":\"app1\",\"crawlid\":\"recorded\","
                + "\"spiderid\":\"link\",\"server_time\":" + now + ",\"total_pages\":1}"));
        JsonNode completed = refreshed(live).get("completed");
        assertEquals(600, completed.at("/0/duration_seconds").asLong(), "from the start its accounting recorded: " + completed);
    }

    private void active(String crawlid, long now) {
        redis.sync().zadd("crawls:active", now * 1000.0, "link:app1:" + crawlid);
        redis.sync().hset("crawl:link:app1:" + crawlid, Map.of("pending", "1", "pages", "0", "expires", "0",
                "example.com|1", "1", "updated", Long.toString(now * 1000)));
    }

    /**
     * Crawlers count only the codes of STATS_RESPONSE_CODES (200, 404, 403, 504 by default): a status class none of whose
     * codes is counted is null, not zeros that would read as "no server errors" during an outage.
     */
    @Test
    void aStatusClassNoCrawlerCountsIsNullAndTheCodesCountedAreListed() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        redis.sync().set("stats:crawler:hostA:link:0123456789ab", now + ".5");
        redis.sync().hset("stats:crawler:hostA:link:200:900", Map.of(Long.toString(now / 15 * 15), "30"));
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        JsonNode view = refreshed(live);
        assertEquals("[200,403,404,504]", view.get("response_codes").toString());
        for (String span : List.of("5m", "1h", "24h")) {
            JsonNode chart = view.at("/charts/" + span + "/pages");
            assertTrue(chart.get("3xx").isNull() && chart.get("5xx").isNull(), span + ": " + chart);
            assertEquals(chart.get("t").size(), chart.get("4xx").size(), "404 and 403 are counted, none came: zeros");
            assertEquals(0, chart.at("/4xx/0").asDouble());
            assertTrue(chart.get("errors").isArray(), span + ": " + chart);
        }
        String rateOf = view.at("/nodes/0/rate_of").asText();
        assertTrue(rateOf.contains("200, 403, 404, 504 only") && rateOf.contains("STATS_RESPONSE_CODES"), rateOf);

        // a crawler that counts 503, configured otherwise than this gateway: its counter says so, from the refresh whose
        // pass over the keyspace finds it (the next that comes 39 times the last pass's duration after it)
        redis.sync().hset("stats:crawler:hostB:link:503:900", Map.of(Long.toString(now / 15 * 15 - 15), "15"));
        view = Awaitility.await("the new counter found").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> refreshed(live), found -> found.get("response_codes").toString().equals("[200,403,404,503,504]"));
        // found by its time, not its place: the chart's last point moves on if a 15 s bucket began since the counter was written
        JsonNode times = view.at("/charts/5m/pages/t");
        int point = IntStream.range(0, times.size()).filter(i -> times.get(i).asLong() == now / 15 * 15 - 15).findFirst().orElseThrow();
        assertEquals(1.0, view.at("/charts/5m/pages/5xx").get(point).asDouble(), 1e-9, "15 responses 503 in that full 15 s");
        assertTrue(view.at("/charts/5m/pages/3xx").isNull());

        Settings nothingCounted = settings("3600", "3600", Map.of("STATS_STATUS_CODES", "false"));
        redis.sync().flushdb();
        LiveView off = new LiveView(nothingCounted, () -> Optional.of(redis), new Json(JsonLimits.from(nothingCounted)), Clock.systemUTC());
        view = refreshed(off);
        assertEquals("[]", view.get("response_codes").toString());
        for (String series : List.of("2xx", "3xx", "4xx", "5xx", "errors")) {
            assertTrue(view.at("/charts/5m/pages/" + series).isNull(), series + ": " + view.at("/charts/5m/pages"));
        }
    }

    @Test
    void aWindowFinerThanTheSpanIsMergedIntoAtMostThreeHundredPoints() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        // STATS_TIMES: [SECONDS_1_MINUTE]: one-second buckets, the only window there is for every span
        redis.sync().hset("stats:crawler:hostA:link:200:60", Map.of(Long.toString(now - 20), "6", Long.toString(now - 10), "4"));
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        JsonNode view = refreshed(live);
        for (String span : List.of("5m", "1h", "24h")) {
            JsonNode chart = view.at("/charts/" + span + "/pages");
            assertTrue(chart.get("t").size() <= 300, span + ": " + chart.get("t").size() + " points of "
                    + chart.get("bucket_seconds") + " s");
            double charted = 0;
            for (JsonNode rate : chart.get("2xx")) {
                charted += rate.asDouble();
            }
            assertTrue(charted > 0, span + ": the 10 responses are charted");
        }
    }

    @Test
    void windowsKeptAsTheOriginalsSortedSetsAreChartedWithOurBucketsOfTheSameWindow() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        redis.sync().flushdb();
        // STATS_ORIGINAL_KEYS, or a Python crawler: one member per event, scored by its time
        redis.sync().set("stats:crawler:hostP:link:0123456789ab", now + ".5");
        for (int event = 0; event < 30; event++) {
            redis.sync().zadd("stats:crawler:hostP:link:200:900", now - 20 - event % 10 + 0.25, "event" + event);
        }
        redis.sync().zadd("stats:crawler:hostP:link:200:900", now - 2000, "long ago");
        // and a Java crawler on the same host with the defaults: its buckets beside the sorted set
        redis.sync().hset(Keyspace.statsBuckets("stats:crawler:hostP:link:200:900"), Long.toString((now - 20) / 15 * 15), "15");
        Settings settings = settings();
        LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)), Clock.systemUTC());
        JsonNode view = refreshed(live);
        assertTrue(view.get("error").isNull(), view.toString());
        JsonNode chart = view.at("/charts/5m/pages");
        double charted = 0;
        for (JsonNode rate : chart.get("2xx")) {
            charted += rate.asDouble() * chart.get("bucket_seconds").asLong();
        }
        assertEquals(45, charted, 1e-6, "the 30 + 15 responses of the last 30 s, not the one outside the window: " + chart);
        double rate = view.at("/nodes/0/rate").asDouble();
        assertTrue(rate >= 45 / 75.0 && rate <= 45 / 60.0, "45 responses over the last minute and its first bucket: " + rate);
    }

    @Test
    void anUnwatchedViewRefreshesSeldomAndCatchesUpWhenAPageAsks() throws Exception {
        redis.sync().flushdb();
        ManualClock time = new ManualClock();
        Settings settings = settings("3", "60");
        try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)),
                time.withZone(ZoneOffset.UTC))) {
            live.tick();
            assertEquals(1, live.refreshes(), "the first tick reads the cluster");
            for (int tick = 0; tick < 19; tick++) {
                tickAfter(time, live, 3);
            }
            assertEquals(1, live.refreshes(), "57 s without a page asking: the keyspace is not scanned again");
            assertEquals(2, tickAfter(time, live, 3), "unwatched, once every LIVE_IDLE_REFRESH_SECONDS");

            time.advance(Duration.ofSeconds(40));
            assertEquals(time.instant().getEpochSecond(), ask(live).get("server_time").asLong(),
                    "a page finding a snapshot 40 s old waits for a fresh one");
            assertEquals(3, live.refreshes());

            assertEquals(4, tickAfter(time, live, 3), "watched, every LIVE_REFRESH_SECONDS");
            ask(live);
            assertEquals(4, live.refreshes(), "a snapshot 0 s old is answered as it is");

            assertEquals(4, tickAfter(time, live, 31), "no page for 31 s: unwatched again");
            assertEquals(5, tickAfter(time, live, 29), "the idle refresh");
            time.advance(Duration.ofSeconds(10));
            assertEquals(time.instant().getEpochSecond(), ask(live).get("server_time").asLong(),
                    "the first page after a pause waits for a fresh snapshot rather than take one 10 s old");
            assertEquals(6, live.refreshes());
        }
    }

    /** Lets {@code seconds} pass, then the live view's ticker tick; answers how many refreshes have run. */
    private static long tickAfter(ManualClock time, LiveView live, int seconds) {
        time.advance(Duration.ofSeconds(seconds));
        live.tick();
        return live.refreshes();
    }

    @Test
    void aPageAskingBeforeAnyRefreshReadRedisWaitsForOne() throws Exception {
        redis.sync().flushdb();
        ManualClock time = new ManualClock();
        AtomicReference<Optional<RedisConnection>> connection = new AtomicReference<>(Optional.empty());
        Settings settings = settings("3", "60");
        try (LiveView live = new LiveView(settings, connection::get, new Json(JsonLimits.from(settings)), time.withZone(ZoneOffset.UTC));
                CapturedLog log = CapturedLog.start(LiveView.class, Level.INFO)) {
            live.tick();
            assertEquals(1, live.refreshes(), "the gateway's first refresh, before its connection to Redis is up");
            connection.set(Optional.of(redis));

            JsonNode first = ask(live);
            assertEquals(2, live.refreshes(), "a page asking at once waits for a refresh, not the failed one's 'not connected'");
            assertTrue(first.get("error").isNull(), first.toString());
            ask(live);
            assertEquals(2, live.refreshes(), "once Redis was read, a fresh snapshot is answered as it is");
            assertEquals(List.of(), log.lines(), "a gateway still connecting (which its Redis link says) is no failure to read");
        }
    }

    @Test
    void pagesAskingWhileEveryRefreshFailsBeforeAnyReadDoNotEachMakeOne() throws Exception {
        redis.sync().flushdb();
        redis.sync().set(Keyspace.CRAWLS_ACTIVE, "not a sorted set"); // as an ACL that denies a command would fail it
        ManualClock time = new ManualClock();
        Settings settings = settings("3", "60");
        try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)),
                time.withZone(ZoneOffset.UTC))) {
            live.tick();
            for (int page = 0; page < 10; page++) {
                assertTrue(ask(live).get("error").asText().startsWith("Redis: "));
            }
            assertEquals(2, live.refreshes(), "the first tick, and one refresh for the pages asking within a refresh time");
            time.advance(Duration.ofSeconds(3));
            ask(live);
            assertEquals(3, live.refreshes(), "and again a refresh time on");
        } finally {
            redis.sync().del(Keyspace.CRAWLS_ACTIVE);
        }
    }

    /**
     * A snapshot says when the state it shows was read from Redis: never before the first read, and the last read's time
     * while Redis is away, however often the snapshot is published again meanwhile.
     */
    @Test
    void aSnapshotSaysWhenTheStateItShowsWasRead() throws Exception {
        redis.sync().flushdb();
        ManualClock time = new ManualClock();
        AtomicReference<Optional<RedisConnection>> connection = new AtomicReference<>(Optional.empty());
        Settings settings = settings();
        try (LiveView live = new LiveView(settings, connection::get, new Json(JsonLimits.from(settings)), time.withZone(ZoneOffset.UTC))) {
            JsonNode unread = refreshed(live);
            assertTrue(unread.get("read_time_ms").isNull(), unread.toString());
            assertEquals("Redis: Redis is not connected; nothing read yet", unread.get("error").asText());

            connection.set(Optional.of(redis));
            long readMillis = time.millis();
            assertEquals(readMillis, refreshed(live).get("read_time_ms").asLong());

            connection.set(Optional.empty());
            time.advance(Duration.ofSeconds(10));
            JsonNode away = refreshed(live);
            assertEquals(readMillis, away.get("read_time_ms").asLong(), "the state shown is still the one read then");
            assertEquals(readMillis + 10_000, away.get("server_time_ms").asLong());
            assertEquals("Redis: Redis is not connected; showing the last state read", away.get("error").asText());
        }
    }

    /** The page sets its clock by the snapshot's date: that is when the snapshot was published, to the millisecond. */
    @Test
    void aSnapshotIsDatedWhenItIsPublished() throws Exception {
        redis.sync().flushdb();
        ManualClock time = new ManualClock();
        Settings settings = settings();
        // reading Redis takes 1.7 s of the refresh
        Supplier<Optional<RedisConnection>> slowRedis = () -> {
            time.advance(Duration.ofMillis(1700));
            return Optional.of(redis);
        };
        try (LiveView live = new LiveView(settings, slowRedis, new Json(JsonLimits.from(settings)), time.withZone(ZoneOffset.UTC))) {
            long startMillis = time.millis();
            JsonNode view = refreshed(live);
            assertEquals(startMillis + 1700, view.get("server_time_ms").asLong(), view.toString());
            assertEquals((startMillis + 1700) / 1000, view.get("server_time").asLong(), "still whole epoch seconds");
        }
    }

    /**
     * While ZooKeeper has not answered since the gateway started, the snapshot says the domain config is not known
     * rather than pass the empty config for the real one; once ZooKeeper answers, its throttles are listed.
     */
    @Test
    void theDomainConfigIsUnknownUntilZooKeeperFirstAnswers() throws Exception {
        redis.sync().flushdb();
        String node = "/scrapy-cluster/crawler/all";
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("live-view-zk"))) {
            try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(ZooKeeperConnection.to(zookeeper.connectString()), node)) {
                store.replaceText("domains:\n  throttled.example.com: {window: 30, hits: 7}\n");
            }
            zookeeper.stop();
            Settings settings = settings("3600", "3600", Map.of("ZOOKEEPER_HOSTS", zookeeper.connectString()));
            try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)),
                    Clock.systemUTC())) {
                live.start();
                JsonNode unknown = refreshed(live);
                assertFalse(unknown.get("domain_config_known").asBoolean(), unknown.toString());
                assertFalse(unknown.get("zookeeper_connected").asBoolean(), unknown.toString());
                assertEquals(0, unknown.get("domains").size(), "nothing listed from a config not read");

                zookeeper.restart();
                JsonNode known = Awaitility.await("the config read").atMost(Duration.ofSeconds(60))
                        .until(() -> refreshed(live), view -> view.get("domain_config_known").asBoolean());
                JsonNode domain = known.get("domains").get(0);
                assertEquals("throttled.example.com", domain.get("domain").asText(), known.toString());
                assertEquals("zookeeper", domain.get("throttle_source").asText());
                assertEquals(7, domain.get("hits").asLong());
            }
        }
    }

    /**
     * The domain config shown is the one crawlers have in force (docs/throttling.md): text that is no config leaves the
     * last good one, a config that names no blacklist leaves the blacklist, and an emptied node reverts the throttles
     * only. Text that is no config, before any config, leaves the config unknown, as crawlers wait for one.
     */
    @Test
    void theDomainConfigShownIsTheOneCrawlersHaveInForce() throws Exception {
        redis.sync().flushdb();
        String node = "/scrapy-cluster/crawler/all";
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("live-view-zk"));
                ZooKeeperConfigStore store = ZooKeeperConfigStore.open(ZooKeeperConnection.to(zookeeper.connectString()), node)) {
            store.replaceText("[not, a, mapping]\n");
            Settings settings = settings("3600", "3600", Map.of("ZOOKEEPER_HOSTS", zookeeper.connectString()));
            try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)),
                    Clock.systemUTC())) {
                live.start();
                Awaitility.await("ZooKeeper's first answer").atMost(Duration.ofSeconds(60)).until(() -> refreshed(live),
                        view -> view.get("zookeeper_connected").asBoolean());
                assertFalse(refreshed(live).get("domain_config_known").asBoolean(), "no config was read yet");

                store.replaceText("blacklist: [evil.example.com]\ndomains:\n  throttled.example.com: {window: 30, hits: 7}\n");
                Map<String, String> first = Map.of("evil.example.com", "default, blacklisted", "throttled.example.com", "zookeeper");
                awaitDomains(live, first);

                store.replaceText("domains: [unclosed\n");
                Awaitility.await("the last good config, kept").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                        .until(() -> domainsShown(refreshed(live)), first::equals);

                store.replaceText("domains:\n  other.example.com: {window: 10, hits: 2}\n  held.example.com: {window: 10, hits: -1}\n");
                awaitDomains(live, Map.of("evil.example.com", "default, blacklisted", "other.example.com", "zookeeper",
                        "held.example.com", "zookeeper, paused"));

                store.replaceText("");
                awaitDomains(live, Map.of("evil.example.com", "default, blacklisted"));
            }
        }
    }

    private static void awaitDomains(LiveView live, Map<String, String> expected) {
        Awaitility.await("the domains " + expected).atMost(Duration.ofSeconds(60)).until(() -> domainsShown(refreshed(live)),
                expected::equals);
    }

    /** Each domain listed, with where its throttle comes from and whether it is blacklisted. */
    private static Map<String, String> domainsShown(JsonNode view) {
        Map<String, String> shown = new HashMap<>();
        view.get("domains").forEach(domain -> shown.put(domain.get("domain").asText(), domain.get("throttle_source").asText()
                + (Set.of("blacklisted", "paused").contains(domain.get("state").asText()) ? ", " + domain.get("state").asText() : "")));
        return shown;
    }

    /** A node not there is read as a config known to be empty. */
    @Test
    void aMissingConfigNodeIsAnEmptyConfigKnown() throws Exception {
        redis.sync().flushdb();
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("live-view-zk"))) {
            Settings settings = settings("3600", "3600", Map.of("ZOOKEEPER_HOSTS", zookeeper.connectString()));
            try (LiveView live = new LiveView(settings, () -> Optional.of(redis), new Json(JsonLimits.from(settings)),
                    Clock.systemUTC())) {
                live.start();
                JsonNode known = Awaitility.await("the config read").atMost(Duration.ofSeconds(60))
                        .until(() -> refreshed(live), view -> view.get("domain_config_known").asBoolean());
                assertEquals(0, known.get("domains").size(), known.toString());
            }
        }
    }

    private static JsonNode refreshed(LiveView live) throws Exception {
        live.refresh();
        return ask(live);
    }

    /** What {@code GET /live} answers, as a page asks for it. */
    private static JsonNode ask(LiveView live) throws Exception {
        return JSON.readTree(live.endpoint().answer(new HttpCall(HttpMethod.GET, "/live", null, null)).body());
    }

    @Test
    void aRefreshLongerThanADayIsRefused() {
        Settings settings = settings("2200000", "2200000");
        SettingsException refused = assertThrows(SettingsException.class,
                () -> new LiveView(settings, Optional::empty, new Json(JsonLimits.from(settings)), Clock.systemUTC()));
        assertTrue(refused.getMessage().contains("LIVE_REFRESH_SECONDS") && refused.getMessage().contains("at most 86400"),
                refused.getMessage());
    }

    @Test
    void anIdleRefreshFasterThanTheWatchedOneIsRefused() {
        Settings settings = settings("3", "1");
        SettingsException refused = assertThrows(SettingsException.class,
                () -> new LiveView(settings, Optional::empty, new Json(JsonLimits.from(settings)), Clock.systemUTC()));
        assertTrue(refused.getMessage().contains("LIVE_IDLE_REFRESH_SECONDS"), refused.getMessage());
    }

    private static long commandsProcessed() {
        for (String line : redis.sync().info("stats").split("\r\n")) {
            if (line.startsWith("total_commands_processed:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1));
            }
        }
        throw new IllegalStateException("INFO stats has no total_commands_processed");
    }

    /** The calls of {@code command} Redis counted since its statistics were reset. */
    private static long calls(String command) {
        return CommandStats.calls(redis.sync().info("commandstats"), command);
    }

    private static Settings settings() {
        return settings("3600", "3600");
    }

    private static Settings settings(String refreshSeconds, String idleRefreshSeconds) {
        return settings(refreshSeconds, idleRefreshSeconds, Map.of());
    }

    private static Settings settings(String refreshSeconds, String idleRefreshSeconds, Map<String, String> more) {
        Map<String, String> values = new HashMap<>(more);
        values.put("LIVE_REFRESH_SECONDS", refreshSeconds);
        values.put("LIVE_IDLE_REFRESH_SECONDS", idleRefreshSeconds);
        values.putIfAbsent("ZOOKEEPER_HOSTS", "127.0.0.1:1");
        return Settings.load("rest", new SettingsSources(null, Map.of(), values));
    }
}
