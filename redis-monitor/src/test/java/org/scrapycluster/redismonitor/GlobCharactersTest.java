package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;

/**
 * Key parts holding the glob characters {@code *}, {@code ?} and {@code [}: a job finds exactly
 * the keys of its own spider, app, crawl and domain, never those a glob would also match. The
 * crawls are queued as a Python Kafka monitor queues them (no accounting), so info and stop find
 * their requests by scanning the spider's queues.
 */
class GlobCharactersTest extends OneMonitorTest {

    private static final String APP = "a?p";
    private static final String CRAWL = "c[1]*";
    private static final String ODD_DOMAIN = "[::1].";

    private QueueState target;
    private QueueState neighbour;

    /**
     * The target spider {@code <name>[x]*}, whose unescaped glob {@code <name>[x]*:*:queue} would
     * match the neighbour spider {@code <name>x1}; in each, the target crawl and crawls whose
     * appid or crawlid the target's would match as globs.
     */
    private void queueCrawls() {
        String name = MonitorFixture.unique("sp");
        target = new QueueState(fixture.redis(), name + "[x]*");
        neighbour = new QueueState(fixture.redis(), name + "x1");
        target.zadd(ODD_DOMAIN, target.feedItem("http://[::1]/1", APP, CRAWL, 5, 0), 5);
        target.zadd(ODD_DOMAIN, target.feedItem("http://[::1]/2", APP, CRAWL, 3, 0), 3);
        target.zadd("a.com", target.feedItem("https://a.com/1", APP, CRAWL, 1, 0), 1);
        target.zadd("a.com", target.feedItem("https://a.com/other-app", "axp", CRAWL, 1, 0), 1);
        target.zadd("a.com", target.feedItem("https://a.com/other-crawl", APP, "c1x", 1, 0), 1);
        neighbour.zadd("a.com", neighbour.feedItem("https://a.com/neighbour", APP, CRAWL, 1, 0), 1);
    }

    @Test
    void infoCountsOnlyItsOwnSpiderAppAndCrawl() {
        queueCrawls();
        JsonNode crawl = answer(Keyspace.INFO_CRAWL.fill(target.spider(), APP, CRAWL));
        assertEquals(3, crawl.path("total_pending").asInt(), crawl.toString());
        assertEquals(Set.of(ODD_DOMAIN, "a.com"), Set.copyOf(fieldNames(crawl.path("domains"))), crawl.toString());
        assertEquals(2, crawl.path("domains").path(ODD_DOMAIN).path("total").asInt(), crawl.toString());

        JsonNode app = answer(Keyspace.INFO_APP.fill(target.spider(), APP));
        assertEquals(4, app.path("total_pending").asInt(), app.toString());
        assertEquals(Set.of("c1x", CRAWL), Set.copyOf(fieldNames(app.path("crawlids"))), app.toString());
    }

    @Test
    void stopPurgesOnlyItsOwnSpiderAppAndCrawl() {
        queueCrawls();
        JsonNode answer = answer(Keyspace.STOP_CRAWL.fill(target.spider(), APP, CRAWL));
        assertEquals(3, answer.path("total_purged").asInt(), answer.toString());
        assertEquals(0, fixture.redis().sync().exists(new QueueKey(target.spider(), ODD_DOMAIN).key()));
        List<String> left = fixture.redis().sync().zrange(new QueueKey(target.spider(), "a.com").key(), 0, -1);
        assertEquals(2, left.size(), left.toString());
        assertTrue(left.stream().noneMatch(member -> member.contains("a.com\\/1\"")), left.toString());
        assertEquals(1, fixture.redis().sync().zcard(new QueueKey(neighbour.spider(), "a.com").key()), "the neighbour spider keeps its request");
    }

    /**
     * Crawls queued with their accounting, as our Kafka monitor queues them: stopping the crawl {@code *} takes its own
     * queued and leased requests only (and counts the queued one: the leased one is being fetched); the crawls
     * {@code a[b} and {@code c1} keep theirs, their accounting, and are not blacklisted.
     */
    @Test
    void stoppingTheCrawlStarLeavesEveryOtherCrawlOfItsApp() {
        for (String crawlid : List.of("*", "a[b", "c1")) {
            queues.seed("a.com", queues.feedItem("https://a.com/" + crawlid + "/1", appid, crawlid, 5, FAR));
            queues.seed("b.com", queues.feedItem("https://b.com/" + crawlid + "/1", appid, crawlid, 5, FAR));
        }
        queues.handOut("b.com");
        queues.handOut("b.com");
        queues.handOut("b.com");

        JsonNode stopped = answer(Keyspace.STOP_CRAWL.fill(queues.spider(), appid, "*"));
        assertEquals(1, stopped.path("total_purged").asInt(), stopped.toString());
        assertEquals(Set.of(appid + "||*"), fixture.redis().sync().smembers(Keyspace.blacklist(queues.spider())));
        for (String kept : List.of("a[b", "c1")) {
            JsonNode info = answer(Keyspace.INFO_CRAWL.fill(queues.spider(), appid, kept));
            assertEquals(2, info.path("total_pending").asInt(), kept + ": " + info);
        }
        assertEquals(2, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "a.com").key()), "a.com keeps the requests of a[b and c1");
        assertEquals(2, fixture.redis().sync().hlen(Keyspace.leased(queues.spider())), "the leases of a[b and c1 stay");
    }

    /**
     * A zookeeper edit names its domain literally: removing {@code *.gl?b[x].com} (written by hand: an update for it is
     * refused, as no queue has such a name) leaves {@code a.globx.com}, which it would match as a glob.
     */
    @Test
    void aZookeeperEditAppliesToTheLiteralDomain() throws ZooKeeperConfigException {
        try (ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(fixture.settings().getString("ZOOKEEPER_HOSTS")),
                fixture.zookeeperNode())) {
            String domain = "*.gl?b[x].com";
            node.replaceText("blacklist:\n- a.globx.com\n- '" + domain + "'\ndomains: {}\n");
            String uuid = MonitorFixture.unique("uuid");
            fixture.post(Keyspace.ZOOKEEPER.fill("blacklist-remove", domain, appid), "{\"domain\":\"" + domain + "\",\"uuid\":\"" + uuid + "\"}");
            JsonNode answer = fixture.answers().awaitUuid(uuid);
            assertFalse(answer.has("error"), answer.toString());
            assertEquals(domain, answer.path("domain").asText());
            String yaml = node.readText();
            DomainConfig config = DomainConfigYaml.parseLenient(yaml).config().orElseThrow();
            assertEquals(List.of("a.globx.com"), config.blacklist().orElseThrow(), yaml);
        }
    }

    /** Posts the job {@code key} with a new uuid and waits for its answer. */
    private JsonNode answer(String key) {
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(key, uuid);
        return fixture.answers().awaitUuid(uuid);
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
