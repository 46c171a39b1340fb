package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * The zookeeper job against a real ZooKeeper: each edit leaves the node byte for byte as the
 * original writes it, and failures — ZooKeeper away, a request that cannot be applied — are
 * answered with the error. How each request is read and checked, and what its edit makes of a
 * node's text, is DomainConfigEditTest's.
 */
@ExtendWith(SharedStack.class)
class ZookeeperMonitorTest {

    @Test
    void editsTheDomainConfigAsTheOriginalWritesIt(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, Texts.resource("zookeeper/before.yml"))) {
            editor.edit("domain-update", "cnn.com", "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":0.9,\"window\":60}");
            assertEquals(Texts.resource("zookeeper/after-domain-update.yml"), editor.text());
            editor.edit("blacklist-update", "ebay.com", "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            editor.edit("blacklist-update", "ebay.com", "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            assertEquals(Texts.resource("zookeeper/after-blacklist-update.yml"), editor.text());
            editor.edit("blacklist-remove", "ebay.com", "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            editor.edit("domain-remove", "dmoztools.net", "{\"domain\":\"dmoztools.net\",\"uuid\":\"%s\"}");
            editor.edit("domain-remove", "never-there.com", "{\"domain\":\"never-there.com\",\"uuid\":\"%s\"}");
            assertEquals(Texts.resource("zookeeper/after-removals.yml"), editor.text());
        }
    }

    /** A node the edit would lose part of is answered as the original answers a failed load, and left as it is. */
    @Test
    void aNodeAnEditWouldLosePartOfIsAnsweredAsNotLoadedAndKept(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "domains: [cnn.com]\n")) {
            editor.refuse("blacklist-update", "ebay.com", "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}", "Unable to load Zookeeper config");
            assertEquals("domains: [cnn.com]\n", editor.text());
        }
    }

    @Test
    void aRequestThatCannotBeAppliedIsAnsweredWithTheReason(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack)) {
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");
            assertError(fixture, "domain-update", "cnn.com", appid, "{\"domain\":\"cnn.com\",\"uuid\":\"%s\"}",
                    "'hits' and 'window' not set for domain update");
            assertError(fixture, "domain-upgrade", "cnn.com", appid, "{\"domain\":\"cnn.com\",\"uuid\":\"%s\"}",
                    "Unknown zookeeper action 'domain-upgrade'; one of domain-update, domain-remove, blacklist-update, blacklist-remove");
        }
    }

    /**
     * A domain holding a control character, which no host name has, is refused: written, it would stand in the node as
     * {@code !!binary} base64 that crawlers cannot read as a domain.
     */
    @Test
    void aDomainWithAControlCharacterIsRefusedAndNothingIsWritten(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            String domain = "evil\u0001.com";

            String uuid = MonitorFixture.unique("uuid");
            editor.fixture().post(Keyspace.ZOOKEEPER.fill("blacklist-update", domain, editor.appid()),
                    "{\"domain\":\"evil\\u0001.com\",\"uuid\":\"" + uuid + "\"}");
            JsonNode answer = editor.fixture().answers().awaitUuid(uuid);
            assertEquals(domain, answer.path("domain").asText(), answer.toString());
            assertEquals("'domain' holds the control character U+0001, which no domain name has", answer.path("error").asText(), answer.toString());
            assertEquals("", editor.text());
        }
    }

    @Test
    void answersWithTheOriginalsErrorWhileZooKeeperIsAwayAndEditsOnceItIsBack(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-outage"));
             MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), stack.kafkaBootstrap(), zookeeper.connectString(),
                     "PLUGINS", ImpatientZookeeperMonitor.PLUGINS)) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            String appid = MonitorFixture.unique("app");
            edit(fixture, "blacklist-update", "a.com", appid, "{\"domain\":\"a.com\",\"uuid\":\"%s\"}");
            zookeeper.stop();
            assertError(fixture, "blacklist-update", "b.com", appid, "{\"domain\":\"b.com\",\"uuid\":\"%s\"}",
                    "Unable to load Zookeeper config");
            zookeeper.restart();
            // "back" is once the monitor has reconnected, which Curator's retries may take a while to do on a slow machine
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> monitor.health().check().checks().get("zookeeper").status() == Health.Status.UP);
            edit(fixture, "blacklist-update", "c.com", appid, "{\"domain\":\"c.com\",\"uuid\":\"%s\"}");
            try (ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(zookeeper.connectString()),
                    fixture.zookeeperNode())) {
                assertEquals("blacklist:\n- a.com\n- c.com\ndomains: {}\n", node.readText());
            }
        }
    }

    @Test
    void anEditWhoseWriteGoesUnansweredIsAnsweredAsNotStoredThoughTheWriteMayHaveLanded(EmbeddedStack stack) throws Exception {
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(stack.zookeeperConnect());
             MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), stack.kafkaBootstrap(), proxy.connectString(),
                     "PLUGINS", ImpatientZookeeperMonitor.PLUGINS);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            assertError(fixture, "blacklist-update", "a.com", appid, "{\"domain\":\"a.com\",\"uuid\":\"%s\"}",
                    "Unable to store Zookeeper config");
            assertTrue(proxy.dropping(), "the config was loaded, and its write sent");
            assertEquals("blacklist:\n- a.com\ndomains: {}\n", node.readText(), "the write landed, unanswered");
        }
    }

    /** A started monitor, the domain config node it edits (holding what the test wrote first), and an appid of its own. */
    private record Editor(MonitorFixture fixture, ZooKeeperConfigStore node, String appid) implements AutoCloseable {

        static Editor start(EmbeddedStack stack, String text) throws ZooKeeperConfigException {
            MonitorFixture fixture = MonitorFixture.on(stack);
            Editor editor = new Editor(fixture, ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()),
                    fixture.zookeeperNode()), MonitorFixture.unique("app"));
            try {
                editor.node.replaceText(text);
                fixture.startMonitor();
                return editor;
            } catch (RuntimeException | ZooKeeperConfigException e) {
                editor.close();
                throw e;
            }
        }

        void edit(String action, String domain, String value) {
            ZookeeperMonitorTest.edit(fixture, action, domain, appid, value);
        }

        void refuse(String action, String domain, String value, String error) {
            assertError(fixture, action, domain, appid, value, error);
        }

        String text() throws ZooKeeperConfigException {
            return node.readText();
        }

        @Override
        public void close() {
            node.close();
            fixture.close();
        }
    }

    private static void edit(MonitorFixture fixture, String action, String domain, String appid, String value) {
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(Keyspace.ZOOKEEPER.fill(action, domain, appid), value.formatted(uuid));
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("zookeeper.json", Map.of("uuid", uuid, "appid", appid, "action", action, "domain", domain), answer, from,
                MonitorFixture.now());
        fixture.awaitGone(Keyspace.ZOOKEEPER.fill(action, domain, appid));
    }

    private static void assertError(MonitorFixture fixture, String action, String domain, String appid, String value, String error) {
        long from = MonitorFixture.now();
        String uuid = MonitorFixture.unique("uuid");
        fixture.post(Keyspace.ZOOKEEPER.fill(action, domain, appid), value.formatted(uuid));
        JsonNode answer = fixture.answers().awaitUuid(uuid);
        assertAnswer("zookeeper-error.json", Map.of("uuid", uuid, "appid", appid, "action", action, "domain", domain, "error", error),
                answer, from, MonitorFixture.now());
    }
}
