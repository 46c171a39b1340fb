package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.stats.StatsReader;
import org.scrapycluster.common.stats.StatsWindow;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Statistics in a mixed Python and Java cluster with the defaults ({@code STATS_ORIGINAL_KEYS: false},
 * docs/operations.md "Mixed Python and Java clusters"). Our Kafka monitor, Redis monitor and crawler count a crawl,
 * a refused request, an info request and a domain edit; then a Python service ({@link PythonStatsCollector}) counts
 * and dumps, as the original does, every window of every counter the Python Kafka monitor, Redis monitor and
 * crawler keep, and every window our services wrote: none of its commands meets {@code WRONGTYPE}, which would end
 * the Python service. Our Redis monitor's stats answers count the events of both sides.
 */
@ExtendWith(SharedStack.class)
class MixedStatsAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(5).domains(1).pagesPerDomain(3).linksPerPage(1)
            .pageBytes(600).build();
    private static final String SPIDER = "link";
    private static final String PYTHON_HOST = "python-host";
    /** The counters of the original's Kafka monitor: totals and one per plugin of its default {@code PLUGINS}. */
    private static final List<String> KAFKA_MONITOR = List.of("total", "fail", "ScraperHandler", "ActionHandler", "StatsHandler",
            "ZookeeperHandler");
    /** The counters of the original's Redis monitor: totals and one per plugin. */
    private static final List<String> REDIS_MONITOR = List.of("total", "fail", "InfoMonitor", "StopMonitor", "ExpireMonitor",
            "StatsMonitor", "ZookeeperMonitor");

    @Test
    void aPythonServiceCountingBesideOursNeverMeetsAHashAndOurAnswersCountBothSides(EmbeddedStack stack) {
        List<Long> windows = StatsWindow.parse(Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of()))
                .getStringList("STATS_TIMES"));
        String ourHost = NodeIdentity.create().hostname();
        try (TestOrigin origin = TestOrigin.start(SITE);
                AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(1000, 1, false).startWithCrawlers(1)) {
            String appid = AcceptanceCluster.unique("app");
            cluster.feedEveryPage(origin, appid, "mixed");
            cluster.send("not", "a request");
            String info = AcceptanceCluster.unique("uuid");
            cluster.send("action", "info", "appid", appid, "crawlid", "mixed", "spiderid", SPIDER, "uuid", info);
            String edit = AcceptanceCluster.unique("uuid");
            cluster.send("uuid", edit, "appid", appid, "action", "domain-update", "domain", "example.com", "hits", 10, "window", 60,
                    "scale", 1.0);
            cluster.results().awaitCount(SITE.pages().size());
            cluster.outbound().awaitUuid(info);
            cluster.outbound().awaitUuid(edit);

            StatsReader reader = new StatsReader(cluster.redis(), Clock.systemUTC());
            String scraper = window(service("kafka-monitor", "ScraperHandler"), 900);
            String ourResponses = window(Keyspace.CRAWLER_STATS.fill(ourHost, SPIDER, "200"), 900);
            List<String> counted = List.of(scraper, window(service("kafka-monitor", "fail"), 900),
                    window(service("kafka-monitor", "ActionHandler"), 900), window(service("kafka-monitor", "ZookeeperHandler"), 900),
                    window(service("redis-monitor", "InfoMonitor"), 900), window(service("redis-monitor", "ZookeeperMonitor"), 900));
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> reader.value(ourResponses).orElse(0) == SITE.pages().size()
                    && reader.value(scraper).orElse(0) == SITE.pages().size() && counted.stream().allMatch(key -> reader.value(key).isPresent()));

            SortedSet<String> pythonWindows = new TreeSet<>();
            List<String> pythonCounters = new ArrayList<>();
            KAFKA_MONITOR.forEach(name -> pythonCounters.add(service("kafka-monitor", name)));
            REDIS_MONITOR.forEach(name -> pythonCounters.add(service("redis-monitor", name)));
            for (String host : List.of(ourHost, PYTHON_HOST)) {
                pythonCounters.add(Keyspace.CRAWLER_STATS.fill(host, SPIDER, "200"));
                pythonCounters.add(Keyspace.CRAWLER_STATS.fill(host, SPIDER, "504"));
            }
            pythonCounters.forEach(counter -> windows.forEach(seconds -> pythonWindows.add(window(counter, seconds))));
            List<List<String>> stored = RedisKeys.scanEach(cluster.redis(), StatsReader.patterns(Keyspace.SERVICE_STATS.glob()));
            SortedSet<String> ourWindows = StatsReader.names(stored.get(0), stored.get(1));
            ourWindows.removeIf(key -> windows.stream().noneMatch(seconds -> key.endsWith(":" + seconds)));
            assertTrue(ourWindows.containsAll(counted), "our services' windows, by the original's names: " + ourWindows);
            pythonWindows.addAll(ourWindows);

            PythonStatsCollector python = new PythonStatsCollector(cluster.redis());
            for (String key : pythonWindows) {
                python.increment(key, Long.parseLong(key.substring(key.lastIndexOf(':') + 1)));
            }
            pythonCounters.forEach(counter -> python.incrementLifetime(counter, "python"));
            List<String> lifetimes = pythonCounters.stream().map(Keyspace.STATS_LIFETIME::fill).toList();
            Map<String, Long> dumped = python.dump(List.copyOf(pythonWindows), lifetimes);
            pythonWindows.forEach(key -> assertEquals(1, dumped.get(key), "the Python service's one event, read as it reads it: " + key));
            lifetimes.forEach(key -> assertTrue(dumped.get(key) >= 1, "the lifetimes are shared HyperLogLogs: " + key));

            JsonNode kafkaMonitor = ask(cluster, appid, "kafka-monitor");
            assertEquals(SITE.pages().size() + 1, kafkaMonitor.path("plugins").path("ScraperHandler").path("900").asLong(),
                    "our Kafka monitor's crawl requests and the Python one's: " + kafkaMonitor);
            assertEquals(2, kafkaMonitor.path("fail").path("900").asLong(), kafkaMonitor.toString());
            assertEquals(2, kafkaMonitor.path("plugins").path("ZookeeperHandler").path("900").asLong(), kafkaMonitor.toString());
            JsonNode redisMonitor = ask(cluster, appid, "redis-monitor");
            assertEquals(2, redisMonitor.path("plugins").path("InfoMonitor").path("900").asLong(), redisMonitor.toString());
            assertEquals(1, redisMonitor.path("plugins").path("StopMonitor").path("900").asLong(), "the Python side's only: " + redisMonitor);
            JsonNode spiders = ask(cluster, appid, "spider").path("spiders");
            assertEquals(SITE.pages().size() + 2, spiders.path(SPIDER).path("200").path("900").asLong(),
                    "our crawler's pages and one of a Python crawler on each host: " + spiders);
        }
    }

    /** Asks our Redis monitor, through Kafka, for the stats of {@code type}. */
    private static JsonNode ask(AcceptanceCluster cluster, String appid, String type) {
        String uuid = AcceptanceCluster.unique("uuid");
        cluster.send("uuid", uuid, "appid", appid, "stats", type);
        return cluster.outbound().awaitUuid(uuid);
    }

    private static String service(String service, String counter) {
        return Keyspace.SERVICE_STATS.fill(service, counter);
    }

    private static String window(String counter, long seconds) {
        return Keyspace.STATS_WINDOW.fill(counter, Long.toString(seconds));
    }
}
