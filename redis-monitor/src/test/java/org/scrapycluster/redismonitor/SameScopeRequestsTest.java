package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Requests of the same scope written before the Redis monitor handles their job
 * (docs/redis-monitor.md "Requests of the same scope"): each is answered once, the job key keeps
 * the original's shape (the latest value), and a waiting list left behind by a monitor that read
 * only the key (a Python Redis monitor) is not answered again.
 */
@ExtendWith(SharedStack.class)
class SameScopeRequestsTest {

    @Test
    void requestsWrittenWhileTheJobIsLockedAreEachAnsweredOnce(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack)) {
            fixture.startMonitor();
            String spider = MonitorFixture.unique("spider");
            String key = Keyspace.INFO_CRAWL.fill(spider, "app", "c1");
            fixture.redis().sync().set(Keyspace.lock(key), "another-monitor");
            for (int i = 0; i < 20; i++) {
                fixture.post(key, "uuid-" + i);
            }
            assertEquals("uuid-19", fixture.redis().sync().get(key), "the job key holds the latest uuid, as the original writes it");
            assertEquals(20, fixture.redis().sync().llen(Keyspace.JOB_WAITING.fill(key)));
            fixture.redis().sync().del(Keyspace.lock(key));

            Map<String, Long> perUuid = uuidsAnswered(fixture, 20);
            assertEquals(20, perUuid.size(), perUuid.toString());
            assertTrue(perUuid.values().stream().allMatch(count -> count == 1), perUuid.toString());
            fixture.awaitGone(key);
            assertEquals(0, fixture.redis().sync().exists(Keyspace.JOB_WAITING.fill(key)));
        }
    }

    @Test
    void aKeyRewrittenWithoutItsListIsAnsweredBesideTheListedRequests(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack)) {
            fixture.startMonitor();
            String key = Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app"));
            fixture.redis().sync().set(Keyspace.lock(key), "another-monitor");
            fixture.post(key, "uuid-java");
            fixture.write(key, "uuid-python");
            fixture.redis().sync().del(Keyspace.lock(key));

            assertEquals(Map.of("uuid-java", 1L, "uuid-python", 1L), uuidsAnswered(fixture, 2));
            fixture.awaitGone(key);
        }
    }

    @Test
    void aListLeftByAMonitorThatReadOnlyTheKeyIsNotAnsweredAgain(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack)) {
            String key = Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app"));
            fixture.post(key, "uuid-answered-by-python");
            // a Python Redis monitor answers the key's value and deletes the key, not the list
            fixture.redis().sync().del(key);
            fixture.post(key, "uuid-next");
            assertEquals(List.of("uuid-next"), fixture.redis().sync().lrange(Keyspace.JOB_WAITING.fill(key), 0, -1));

            fixture.startMonitor();
            fixture.answers().awaitUuid("uuid-next");
            fixture.awaitGone(key);
            assertEquals(Map.of("uuid-next", 1L), uuidsAnswered(fixture, 1));
        }
    }

    @Test
    void eachZookeeperEditOfOneScopeIsAppliedInOrderAndAnswered(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");
            String key = Keyspace.ZOOKEEPER.fill("domain-update", "same.com", appid);
            fixture.redis().sync().set(Keyspace.lock(key), "another-monitor");
            fixture.post(key, "{\"domain\":\"same.com\",\"uuid\":\"zk-1\",\"hits\":10,\"scale\":1.0,\"window\":60}");
            fixture.post(key, "{\"domain\":\"same.com\",\"uuid\":\"zk-2\",\"hits\":20,\"scale\":1.0,\"window\":60}");
            fixture.redis().sync().del(Keyspace.lock(key));

            Map<String, Long> perUuid = uuidsAnswered(fixture, 2);
            assertEquals(Map.of("zk-1", 1L, "zk-2", 1L), perUuid);
            fixture.awaitGone(key);
            assertTrue(node.readText().contains("hits: 20"), "the later edit is applied last: " + node.readText());
        }
    }

    /** Waits for {@code count} answers, reads on a moment for any extra, and counts the answers per uuid. */
    private static Map<String, Long> uuidsAnswered(MonitorFixture fixture, int count) {
        fixture.answers().awaitCount(count);
        List<JsonNode> answers = fixture.answers().readFor(Duration.ofMillis(500));
        answers.forEach(answer -> assertTrue(!answer.has("error"), "an error answer: " + answer));
        return answers.stream().collect(Collectors.groupingBy(answer -> answer.path("uuid").asText(), Collectors.counting()));
    }
}
