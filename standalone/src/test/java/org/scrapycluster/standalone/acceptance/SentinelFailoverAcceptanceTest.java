package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * The cluster on a Sentinel-managed Redis (REDIS_SENTINELS, REDIS_SENTINEL_MASTER): the master is
 * killed in the middle of a crawl, the Sentinels promote the replica, every service follows them to
 * it, and every page of the crawl is published (some may be published twice: at least once).
 */
@ExtendWith(SharedStack.class)
class SentinelFailoverAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(31).domains(1).pagesPerDomain(30).linksPerPage(2)
            .pageBytes(400).build();
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void aCrawlFinishesWithEveryPagePublishedWhenTheMasterDies(EmbeddedStack stack) {
        try (SentinelGroup redis = SentinelGroup.start();
             TestOrigin origin = TestOrigin.start(SITE);
             AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(6, 1, false)
                     .set("REDIS_SENTINELS", redis.sentinels()).set("REDIS_SENTINEL_MASTER", SentinelGroup.MASTER_NAME)
                     .set("REDIS_SOCKET_TIMEOUT", 2).set("LEASE_SECONDS", 10).startWithCrawlers(1)) {
            String appid = AcceptanceCluster.unique("app");
            cluster.feedEveryPage(origin, appid, "failover");
            Set<String> expected = SITE.pages().stream().map(origin::pageUrl).collect(Collectors.toSet());

            Awaitility.await().atMost(WAIT).pollInSameThread().until(() -> published(cluster, appid).size() >= 5);
            redis.awaitReplicaInSync();
            redis.killMaster();
            assertTrue(published(cluster, appid).size() < expected.size(), "the master dies in the middle of the crawl");
            Awaitility.await().atMost(WAIT).ignoreExceptions().until(redis::replicaPromoted);

            Awaitility.await().atMost(WAIT).pollInSameThread().until(() -> published(cluster, appid).containsAll(expected));
            assertEquals(expected, published(cluster, appid), "every page of the crawl, and nothing else");
        }
    }

    /**
     * A master that hangs keeps its connections open: a service follows the Sentinels to the replica they promote all
     * the same, and writes nothing to the old master when it wakes, which the Sentinels then demote, dropping what it took.
     */
    @Test
    void aHungMasterIsLeftForTheReplicaTheSentinelsPromote() {
        try (SentinelGroup group = SentinelGroup.start();
             RedisConnection redis = RedisConnection.open(RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null,
                     Map.of("REDIS_SENTINELS", group.sentinels(), "REDIS_SENTINEL_MASTER", SentinelGroup.MASTER_NAME,
                             "REDIS_SOCKET_TIMEOUT", "2"), Map.of()))))) {
            assertEquals("OK", redis.sync().set("before", "1"));
            group.awaitReplicaInSync();
            group.pauseMaster();
            try {
                Awaitility.await().atMost(WAIT).ignoreExceptions().until(group::replicaPromoted);
                Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                        .until(() -> "OK".equals(redis.sync().set("during", "2")));
                assertEquals(Integer.toString(group.replicaPort()), redis.sync().configGet("port").get("port"), "on the promoted replica");
            } finally {
                group.resumeMaster();
            }
            assertEquals("OK", redis.sync().set("after", "3"));
            assertEquals(Integer.toString(group.replicaPort()), redis.sync().configGet("port").get("port"), "still there");
            assertEquals(List.of("1", "2", "3"),
                    List.of(redis.sync().get("before"), redis.sync().get("during"), redis.sync().get("after")));
        }
    }

    private static Set<String> published(AcceptanceCluster cluster, String appid) {
        return cluster.results().readFor(Duration.ofMillis(100)).stream().filter(result -> result.get("appid").asText().equals(appid))
                .map(result -> result.get("url").asText()).collect(Collectors.toSet());
    }
}
