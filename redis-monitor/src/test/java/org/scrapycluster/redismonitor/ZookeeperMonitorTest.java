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
 * answered with the error.
 */
@ExtendWith(SharedStack.class)
class ZookeeperMonitorTest {

    @Test
    void editsTheDomainConfigAsTheOriginalWritesIt(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText(Texts.resource("zookeeper/before.yml"));
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            edit(fixture, "domain-update", "cnn.com", appid, "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":0.9,\"window\":60}");
            assertEquals(Texts.resource("zookeeper/after-domain-update.yml"), node.readText());
            edit(fixture, "blacklist-update", "ebay.com", appid, "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            edit(fixture, "blacklist-update", "ebay.com", appid, "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            assertEquals(Texts.resource("zookeeper/after-blacklist-update.yml"), node.readText());
            edit(fixture, "blacklist-remove", "ebay.com", appid, "{\"domain\":\"ebay.com\",\"uuid\":\"%s\"}");
            edit(fixture, "domain-remove", "dmoztools.net", appid, "{\"domain\":\"dmoztools.net\",\"uuid\":\"%s\"}");
            edit(fixture, "domain-remove", "never-there.com", appid, "{\"domain\":\"never-there.com\",\"uuid\":\"%s\"}");
            assertEquals(Texts.resource("zookeeper/after-removals.yml"), node.readText());
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

    @Test
    void aDomainIsKeptInLowerCaseAsQueueKeysSpellIt(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            edit(fixture, "blacklist-update", "EBay.com", appid, "{\"domain\":\"EBay.com\",\"uuid\":\"%s\"}");
            edit(fixture, "blacklist-update", "Cnn.com", appid, "{\"domain\":\"Cnn.com\",\"uuid\":\"%s\"}");
            edit(fixture, "domain-update", "DMOZtools.net", appid,
                    "{\"domain\":\"DMOZtools.net\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":60}");
            edit(fixture, "blacklist-remove", "CNN.COM", appid, "{\"domain\":\"CNN.COM\",\"uuid\":\"%s\"}");
            assertEquals("blacklist:\n- ebay.com\ndomains:\n  dmoztools.net:\n    hits: 15\n    scale: 1.0\n    window: 60\n",
                    node.readText());
        }
    }

    @Test
    void anInternationalisedDomainIsKeptInTheAsciiFormQueueKeysUse(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            edit(fixture, "blacklist-update", "Bücher.example", appid, "{\"domain\":\"Bücher.example\",\"uuid\":\"%s\"}");
            edit(fixture, "domain-update", "bücher.example", appid,
                    "{\"domain\":\"bücher.example\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":60}");
            String tooLong = "ü".repeat(64) + ".example";
            assertError(fixture, "blacklist-update", tooLong, appid, "{\"domain\":\"" + tooLong + "\",\"uuid\":\"%s\"}",
                    "'domain' has no ASCII form (IDNA): The label in the input is too long");
            assertEquals("blacklist:\n- xn--bcher-kva.example\ndomains:\n  xn--bcher-kva.example:\n    hits: 15\n    scale: 1.0\n    window: 60\n",
                    node.readText());
        }
    }

    @Test
    void aWindowBeyondAYearIsRefusedAndHitsBeyondALongAreNotWrapped(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            assertError(fixture, "domain-update", "cnn.com", appid,
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":18446744073709551616}",
                    "'window' must be from 1 to 31536000 seconds (a year) for domain update, was 18446744073709551616");
            assertError(fixture, "domain-update", "cnn.com", appid,
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":-60}",
                    "'window' must be from 1 to 31536000 seconds (a year) for domain update, was -60");
            edit(fixture, "domain-update", "cnn.com", appid,
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":9223372036854775808,\"scale\":1.0,\"window\":60}");
            assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 9223372036854775807\n    scale: 1.0\n    window: 60\n",
                    node.readText());
        }
    }

    /**
     * A scale that is not a number from 0 to 1 is refused, not written for crawlers to clamp or to read as 1 (and for
     * {@code push} to refuse once pulled); the node is left as it was.
     */
    @Test
    void aScaleOutsideZeroToOneIsRefusedAndNothingIsWritten(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");

            for (String scale : new String[] {"1e9", "-0.5", "\"half\"", "true"}) {
                assertError(fixture, "domain-update", "cnn.com", appid,
                        "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":" + scale + ",\"window\":60}",
                        "'scale' must be a number from 0 to 1 for domain update, was "
                                + (scale.equals("1e9") ? "1.0E9" : scale.replace('"', '\''))); // a text in single quotes
            }
            edit(fixture, "domain-update", "cnn.com", appid, "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":60}");
            assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 1.0\n    window: 60\n", node.readText(),
                    "only the request without a scale is written, with a scale of 1");
        }
    }

    /**
     * A domain holding a control character, which no host name has, is refused: written, it would stand in the node as
     * {@code !!binary} base64 that crawlers cannot read as a domain.
     */
    @Test
    void aDomainWithAControlCharacterIsRefusedAndNothingIsWritten(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (MonitorFixture fixture = MonitorFixture.on(stack);
             ZooKeeperConfigStore node = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), fixture.zookeeperNode())) {
            node.replaceText("");
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");
            String domain = "evil\u0001.com";

            String uuid = MonitorFixture.unique("uuid");
            fixture.post(Keyspace.ZOOKEEPER.fill("blacklist-update", domain, appid), "{\"domain\":\"evil\\u0001.com\",\"uuid\":\"" + uuid + "\"}");
            JsonNode answer = fixture.answers().awaitUuid(uuid);
            assertEquals(domain, answer.path("domain").asText(), answer.toString());
            assertEquals("'domain' holds the control character U+0001, which no domain name has", answer.path("error").asText(), answer.toString());
            assertEquals("", node.readText());
        }
    }

    @Test
    void answersWithTheOriginalsErrorWhileZooKeeperIsAwayAndEditsOnceItIsBack(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-outage"));
             MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), stack.kafkaBootstrap(), zookeeper.connectString())) {
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
             MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), stack.kafkaBootstrap(), proxy.connectString());
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
