package org.scrapycluster.common.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * Every Redis name of one crawl's life, rendered by the classes that use them, against the
 * original's names and our additive ones (keyspace/crawl-keys.txt), and every template filled in
 * Lua by the scripts' keyspace library against the same template filled in Java.
 */
@ExtendWith(TestRedis.class)
class KeyspaceTest {

    private static final String SPIDER = "link";
    private static final String APP = "testapp";
    private static final String CRAWL = "abc123";
    private static final String DOMAIN = "example.com";
    private static final String HOST = "node1";
    private static final String PROCESS = "0123456789ab";

    private final RedisConnection redis;

    KeyspaceTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void aCrawlsKeysHaveTheOriginalsNames() throws IOException {
        assertEquals(expected(), rendered(SPIDER));
    }

    @Test
    void everyTemplateIsAmongThemAll() throws IllegalAccessException {
        Set<String> all = Keyspace.ALL.stream().map(KeyTemplate::name).collect(Collectors.toSet());
        for (Field field : Keyspace.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == KeyTemplate.class) {
                String name = ((KeyTemplate) field.get(null)).name();
                assertTrue(all.contains(name), field.getName() + " is missing from Keyspace.ALL");
            }
        }
    }

    @Test
    void theScriptsNameKeysAsJavaDoes() {
        List<String> args = new ArrayList<>();
        List<String> java = new ArrayList<>();
        for (KeyTemplate template : Keyspace.ALL) {
            // values with Lua pattern and format characters, which must come through literally
            String[] values = template.holes().stream().map(hole -> hole + "%1.[x]").toArray(String[]::new);
            args.add(template.name());
            args.add(Integer.toString(values.length));
            args.addAll(List.of(values));
            java.add(template.fill(values));
        }
        List<String> lua = LuaScript.load("keyspace_names", LuaScript.KEYSPACE).call(redis, ScriptOutputType.MULTI, new String[0],
                args.toArray(String[]::new));
        assertEquals(java, lua);
    }

    /**
     * The globs of a spider's keys match the keys of its crawls and no other: for a spider named {@code buckets}, not
     * our statistics' buckets ({@code buckets:stats:…}), nor the name of a crawl, which is no key.
     */
    @Test
    void aSpidersGlobsMatchItsKeysAndNotTheStatisticsOfASpiderNamedBuckets() {
        Map<String, String> names = rendered("buckets");
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("keyspace-spider-globs"));
             RedisConnection own = TestRedis.connect(server)) {
            names.values().stream().filter(name -> !name.contains("*")).forEach(name -> own.sync().set(name, name));

            Set<String> matched = new TreeSet<>();
            Keyspace.spiderGlobs("buckets").forEach(glob -> matched.addAll(RedisKeys.scan(own, glob)));

            Set<String> keysOfTheSpider = new TreeSet<>();
            for (String what : List.of("seed queue", "throttle window", "throttle time", "throttle pause", "dupefilter",
                    "domain max page filter", "global page count filter", "blacklist", "leased requests", "lease deadlines",
                    "active domains", "queue scan turn", "queue lengths", "accounting", "crawls of the app")) {
                keysOfTheSpider.add(names.get(what));
            }
            assertEquals(keysOfTheSpider, matched);
        }
    }

    @Test
    void aTemplateTakesOneValuePerHole() {
        assertThrows(IllegalArgumentException.class, () -> Keyspace.QUEUE.fill(SPIDER));
        assertThrows(IllegalArgumentException.class, () -> KeyTemplate.of("broken", "stats:{service"));
        assertEquals("li\\*nk:*:queue", Keyspace.QUEUE.glob("li*nk"));
    }

    /** Every name of the life of a crawl of {@code spider}, by what it is (as keyspace/crawl-keys.txt lists them). */
    private static Map<String, String> rendered(String spider) {
        CrawlRef crawl = new CrawlRef(spider, APP, CRAWL);
        String throttleKey = new ThrottleKeyStyle(true, true).throttleKey(spider, "1.2.3.4", DOMAIN);
        ThrottleSpec throttle = new ThrottleSpec(throttleKey, 60, 10, false);
        String stop = Keyspace.STOP_CRAWL.fill(spider, APP, CRAWL);
        String kafkaMonitorTotal = Keyspace.SERVICE_STATS.fill("kafka-monitor", "total");
        String crawlerCounter = Keyspace.CRAWLER_STATS.fill(HOST, spider, "200");
        Map<String, String> names = new LinkedHashMap<>();
        names.put("seed queue", new QueueKey(spider, DOMAIN).key());
        names.put("throttle key", new ThrottleKeyStyle(false, false).throttleKey(spider, "1.2.3.4", DOMAIN));
        names.put("throttle key per spider and ip", throttleKey);
        names.put("throttle window", throttle.windowKey());
        names.put("throttle time", throttle.timeKey());
        names.put("throttle pause", throttle.pauseKey());
        names.put("robots.txt server errors", Keyspace.ROBOTS_SERVER_ERRORS.fill("http://" + DOMAIN));
        names.put("dupefilter", Keyspace.dupefilter(spider, CRAWL));
        names.put("domain max page filter", Keyspace.domainMaxPageFilter(spider, DOMAIN, CRAWL));
        names.put("global page count filter", Keyspace.globalPageCountFilter(spider, DOMAIN, CRAWL));
        names.put("blacklist", Keyspace.blacklist(spider));
        names.put("blacklist entry", crawl.blacklistEntry());
        names.put("timeout", crawl.timeoutKey());
        names.put("info of the app", Keyspace.INFO_APP.fill(spider, APP));
        names.put("info of the crawl", Keyspace.INFO_CRAWL.fill(spider, APP, CRAWL));
        names.put("stop of the app", Keyspace.STOP_APP.fill(spider, APP));
        names.put("stop of the crawl", stop);
        names.put("stats request", Keyspace.STATS_REQUEST.fill("crawler", APP));
        names.put("zookeeper edit", Keyspace.ZOOKEEPER.fill("domain-update", DOMAIN, APP));
        names.put("job signal", Keyspace.JOBS_SIGNAL);
        names.put("job scan turn", Keyspace.JOBS_SCAN_TURN.fill("InfoMonitor,StopMonitor"));
        names.put("job waiting list", Keyspace.JOB_WAITING.fill(stop));
        names.put("job answers not sent", Keyspace.JOB_ANSWERS.fill(stop));
        names.put("job lock", Keyspace.lock(stop));
        names.put("job failures", Keyspace.LOCK_FAILURES.fill(stop));
        names.put("backlog meters lock", Keyspace.lock(Keyspace.BACKLOG_METERS_LOCK));
        names.put("completed crawls lock", Keyspace.lock(Keyspace.COMPLETED_SENDER_LOCK));
        names.put("leased requests", Keyspace.leased(spider));
        names.put("lease deadlines", Keyspace.leases(spider));
        names.put("active domains", Keyspace.activeDomains(spider));
        names.put("activations channel", Keyspace.activations(spider));
        names.put("queue scan turn", Keyspace.QUEUE_SCAN_TURN.fill(spider));
        names.put("queue lengths", Keyspace.queueLengths(spider));
        names.put("crawl name", crawl.name());
        names.put("accounting", crawl.accountingKey());
        names.put("crawls of the app", Keyspace.crawlsOfApp(spider, APP));
        names.put("active crawls", Keyspace.CRAWLS_ACTIVE);
        names.put("foreign crawls", Keyspace.CRAWLS_FOREIGN);
        names.put("drained crawls", Keyspace.CRAWLS_DRAINED);
        names.put("completed crawls", Keyspace.CRAWLS_COMPLETED);
        names.put("kafka monitor total", kafkaMonitorTotal);
        names.put("kafka monitor total window", Keyspace.STATS_WINDOW.fill(kafkaMonitorTotal, "900"));
        names.put("kafka monitor total buckets", Keyspace.statsBuckets(Keyspace.STATS_WINDOW.fill(kafkaMonitorTotal, "900")));
        names.put("kafka monitor total lifetime", Keyspace.STATS_LIFETIME.fill(kafkaMonitorTotal));
        names.put("crawler status counter", crawlerCounter);
        names.put("crawler status window", Keyspace.STATS_WINDOW.fill(crawlerCounter, "3600"));
        names.put("crawler status buckets", Keyspace.statsBuckets(Keyspace.STATS_WINDOW.fill(crawlerCounter, "3600")));
        names.put("crawler buckets (scan)", Keyspace.STATS_BUCKETS.globOf(Keyspace.CRAWLER_STATS.glob()));
        names.put("kafka monitor heartbeat", Keyspace.HEARTBEAT.fill("kafka-monitor", new NodeIdentity(HOST, PROCESS).toString()));
        names.put("crawler heartbeat", Keyspace.CRAWLER_HEARTBEAT.fill(HOST, spider, PROCESS));
        names.put("rest poll", Keyspace.REST_POLL.fill("u-1"));
        names.put("queues of the spider (scan)", Keyspace.QUEUE.glob(spider));
        names.put("crawler counters (scan)", Keyspace.CRAWLER_STATS.glob());
        names.put("stats requests (scan)", Keyspace.STATS_REQUEST.glob());
        return names;
    }

    private static Map<String, String> expected() throws IOException {
        Map<String, String> names = new LinkedHashMap<>();
        try (InputStream in = KeyspaceTest.class.getResourceAsStream("/keyspace/crawl-keys.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int gap = line.indexOf("  ");
                    names.put(line.substring(0, gap).strip(), line.substring(gap).strip());
                }
            }
        }
        return names;
    }
}
