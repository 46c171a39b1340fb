package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
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

    /**
     * An edit rewrites only the part it names: a fractional window (which Python crawlers apply as written), quoted
     * numbers and a key crawlers do not read are written back as they were, as the original writes them.
     */
    @Test
    void anEditKeepsWhatItDoesNotChangeAsWritten(EmbeddedStack stack) throws ZooKeeperConfigException {
        String before = "owner: crawl-team\ndomains:\n  a.com: {window: 0.5, hits: 10}\n  b.com: {window: \"60\", hits: \"30\"}\n";
        try (Editor editor = Editor.start(stack, before)) {
            editor.edit("domain-update", "cnn.com", "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":0.9,\"window\":60}");
            assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 10\n    window: 0.5\n  b.com:\n    hits: '30'\n    window: '60'\n"
                    + "  cnn.com:\n    hits: 15\n    scale: 0.9\n    window: 60\nowner: crawl-team\n", editor.text());
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

    @Test
    void aDomainIsKeptInLowerCaseAsQueueKeysSpellIt(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            editor.edit("blacklist-update", "EBay.com", "{\"domain\":\"EBay.com\",\"uuid\":\"%s\"}");
            editor.edit("blacklist-update", "Cnn.com", "{\"domain\":\"Cnn.com\",\"uuid\":\"%s\"}");
            editor.edit("domain-update", "DMOZtools.net",
                    "{\"domain\":\"DMOZtools.net\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":60}");
            editor.edit("blacklist-remove", "CNN.COM", "{\"domain\":\"CNN.COM\",\"uuid\":\"%s\"}");
            assertEquals("blacklist:\n- ebay.com\ndomains:\n  dmoztools.net:\n    hits: 15\n    scale: 1.0\n    window: 60\n",
                    editor.text());
        }
    }

    /**
     * Entries written by hand or by a Python Redis monitor as {@code Example.com} are applied by crawlers to
     * {@code example.com} (docs/throttling.md): a removal of the domain takes out every one of them, so that none stays
     * in force after a request answered as a success.
     */
    @Test
    void aRemovalTakesOutEveryEntryCrawlersApplyToTheDomainHoweverItIsSpelled(EmbeddedStack stack) throws ZooKeeperConfigException {
        String before = "blacklist:\n- Example.com\n- other.com\n- EXAMPLE.COM\n- B\u00fccher.de\n"
                + "domains:\n  Example.com:\n    hits: 5\n    window: 60\n  example.com:\n    hits: 15\n    window: 60\n"
                + "  other.com:\n    hits: 15\n    window: 60\n";
        try (Editor editor = Editor.start(stack, before)) {
            editor.edit("domain-remove", "example.com", "{\"domain\":\"example.com\",\"uuid\":\"%s\"}");
            editor.edit("blacklist-remove", "example.com", "{\"domain\":\"example.com\",\"uuid\":\"%s\"}");
            editor.edit("blacklist-remove", "b\u00fccher.de", "{\"domain\":\"b\u00fccher.de\",\"uuid\":\"%s\"}");

            assertEquals("blacklist:\n- other.com\ndomains:\n  other.com:\n    hits: 15\n    window: 60\n", editor.text());
            DomainConfig applied = DomainConfigYaml.parseApplied(editor.text()).config().orElseThrow();
            assertEquals(Optional.of(List.of("other.com")), applied.blacklist(), "as crawlers apply it");
            assertEquals(Set.of("other.com"), applied.throttles().keySet());
        }
    }

    /** An update replaces the entries of the domain spelled otherwise, rather than leave a stale one beside its own. */
    @Test
    void anUpdateReplacesTheEntriesOfTheDomainSpelledOtherwise(EmbeddedStack stack) throws ZooKeeperConfigException {
        String before = "blacklist:\n- a.com\n- Example.com\n- b.com\n- EXAMPLE.com\n"
                + "domains:\n  EXAMPLE.COM:\n    hits: 1\n    window: 60\n  Example.com:\n    hits: 5\n    window: 60\n";
        try (Editor editor = Editor.start(stack, before)) {
            editor.edit("blacklist-update", "example.com", "{\"domain\":\"example.com\",\"uuid\":\"%s\"}");
            editor.edit("domain-update", "example.com",
                    "{\"domain\":\"example.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":60}");

            assertEquals("blacklist:\n- a.com\n- example.com\n- b.com\ndomains:\n  example.com:\n    hits: 15\n    scale: 1.0\n"
                    + "    window: 60\n", editor.text(), "in the place of the first, once");
        }
    }

    @Test
    void anInternationalisedDomainIsKeptInTheAsciiFormQueueKeysUse(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            editor.edit("blacklist-update", "Bücher.de", "{\"domain\":\"Bücher.de\",\"uuid\":\"%s\"}");
            editor.edit("domain-update", "bücher.de",
                    "{\"domain\":\"bücher.de\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":60}");
            String tooLong = "ü".repeat(64) + ".de";
            editor.refuse("blacklist-update", tooLong, "{\"domain\":\"" + tooLong + "\",\"uuid\":\"%s\"}",
                    "'domain' has no ASCII form (IDNA): The label in the input is too long");
            assertEquals("blacklist:\n- xn--bcher-kva.de\ndomains:\n  xn--bcher-kva.de:\n    hits: 15\n    scale: 1.0\n    window: 60\n",
                    editor.text());
        }
    }

    @Test
    void aWindowBeyondAYearIsRefusedAndHitsBeyondALongAreNotWrapped(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            editor.refuse("domain-update", "cnn.com",
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":18446744073709551616}",
                    "'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was 18446744073709551616");
            editor.refuse("domain-update", "cnn.com",
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":1.0,\"window\":-60}",
                    "'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was -60");
            editor.edit("domain-update", "cnn.com",
                    "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":9223372036854775808,\"scale\":1.0,\"window\":60}");
            assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 9223372036854775807\n    scale: 1.0\n    window: 60\n",
                    editor.text());
        }
    }

    /**
     * A window with a fraction of a second in a job written straight into Redis (a Kafka monitor's request has whole
     * seconds) is written as given, as the original writes it (60.0 a float), and crawlers apply it as written: 1.5 is
     * not cut to 1, nor 0.5 taken for no window at all.
     */
    @Test
    void aFractionalWindowIsWrittenAsGiven(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            editor.edit("domain-update", "a.com", "{\"domain\":\"a.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":1.5}");
            editor.edit("domain-update", "b.com", "{\"domain\":\"b.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":0.5}");
            editor.edit("domain-update", "c.com", "{\"domain\":\"c.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":\"0.25\"}");
            editor.edit("domain-update", "d.com", "{\"domain\":\"d.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":60.0}");
            editor.refuse("domain-update", "e.com", "{\"domain\":\"e.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":-0.5}",
                    "'window' must be above 0 and at most 31536000 seconds (a year) for domain update, was -0.5");

            String text = editor.text();
            assertEquals("blacklist: []\ndomains:\n  a.com:\n    hits: 15\n    scale: 1.0\n    window: 1.5\n"
                    + "  b.com:\n    hits: 15\n    scale: 1.0\n    window: 0.5\n  c.com:\n    hits: 15\n    scale: 1.0\n    window: 0.25\n"
                    + "  d.com:\n    hits: 15\n    scale: 1.0\n    window: 60.0\n", text);
            Map<String, Double> applied = DomainConfigYaml.parseApplied(text).config().orElseThrow().throttles().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().appliedWindow()));
            assertEquals(Map.of("a.com", 1.5, "b.com", 0.5, "c.com", 0.25, "d.com", 60.0), applied, "as crawlers apply it");
        }
    }

    /**
     * A scale that is not a number from 0 to 1 is refused, not written for crawlers to clamp or to read as 1 (and for
     * {@code push} to refuse once pulled); the node is left as it was.
     */
    @Test
    void aScaleOutsideZeroToOneIsRefusedAndNothingIsWritten(EmbeddedStack stack) throws ZooKeeperConfigException {
        try (Editor editor = Editor.start(stack, "")) {
            for (String scale : new String[] {"1e9", "-0.5", "\"half\"", "true"}) {
                editor.refuse("domain-update", "cnn.com",
                        "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"scale\":" + scale + ",\"window\":60}",
                        "'scale' must be a number from 0 to 1 for domain update, was "
                                + (scale.equals("1e9") ? "1000000000.0" : scale.replace('"', '\''))); // a text in single quotes
            }
            editor.edit("domain-update", "cnn.com", "{\"domain\":\"cnn.com\",\"uuid\":\"%s\",\"hits\":15,\"window\":60}");
            assertEquals("blacklist: []\ndomains:\n  cnn.com:\n    hits: 15\n    scale: 1.0\n    window: 60\n", editor.text(),
                    "only the request without a scale is written, with a scale of 1");
        }
    }

    /**
     * An update for a domain no queue key names (a subdomain, a path) is refused, saying which domain it belongs to; a
     * removal is not, so that such an entry written before can be taken out.
     */
    @Test
    void anUpdateForADomainNoQueueNamesIsRefusedAndARemovalIsNot(EmbeddedStack stack) throws ZooKeeperConfigException {
        String before = "blacklist:\n- www.ebay.com\ndomains: {}\n";
        try (Editor editor = Editor.start(stack, before)) {
            editor.refuse("blacklist-update", "www.bbc.co.uk", "{\"domain\":\"www.bbc.co.uk\",\"uuid\":\"%s\"}",
                    "'www.bbc.co.uk' is not a registered domain as queue keys use it; its registered domain is 'bbc.co.uk',"
                            + " so crawlers would never apply it");
            editor.refuse("domain-update", "cnn.com/news", "{\"domain\":\"cnn.com/news\",\"uuid\":\"%s\",\"hits\":15,\"window\":60}",
                    "'cnn.com/news' is not a registered domain as queue keys use it; its registered domain is 'cnn.com',"
                            + " so crawlers would never apply it");
            assertEquals(before, editor.text());

            editor.edit("blacklist-remove", "www.ebay.com", "{\"domain\":\"www.ebay.com\",\"uuid\":\"%s\"}");
            assertEquals("blacklist: []\ndomains: {}\n", editor.text());
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
