package org.scrapycluster.common.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.testing.ResourceFixtures;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.junit.SharedStack;

@ExtendWith(SharedStack.class)
class ZooKeeperConfigStoreTest {

    private ZooKeeperConnection connection;
    private CuratorFramework other;
    private String path;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        connection = ZooKeeperConnection.to(stack.zookeeperConnect());
        other = WatcherEvents.writer(stack.zookeeperConnect());
        path = "/store-test/" + UUID.randomUUID() + "/crawler/all";
    }

    @AfterEach
    void disconnect() {
        other.close();
    }

    @Test
    void editsTheNodeAsTheOriginalRedisMonitorDoes() throws Exception {
        WatcherEvents.write(other, path, ResourceFixtures.text("zookeeper/edits/section-3.9-example/before.yml"));
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            store.update(config -> config.domainUpdate("cnn.com", 60, 15, 0.9));
            assertEquals(ResourceFixtures.text("zookeeper/edits/section-3.9-example/after.yml"), read(path));
        }
    }

    /**
     * Only the part the edit names is rewritten: a fractional window, quoted numbers and keys crawlers do not read are
     * written back as they were, where reading the node as crawlers read it and writing that back would turn
     * {@code window: 0.5} into {@code window: 0} (no throttle at all for Python crawlers) and drop the rest.
     */
    @Test
    void anEditKeepsEveryOtherValueAsWritten() throws Exception {
        WatcherEvents.write(other, path, "owner: crawl-team\ndomains:\n  a.com: {window: 0.5, hits: 10}\n"
                + "  b.com: {window: \"60\", hits: \"30\"}\n");
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            store.update(config -> config.blacklistUpdate("bingo.com"));
        }
        assertEquals("blacklist:\n- bingo.com\ndomains:\n  a.com:\n    hits: 10\n    window: 0.5\n"
                + "  b.com:\n    hits: '30'\n    window: '60'\nowner: crawl-team\n", read(path));
    }

    @Test
    void createsAMissingNodeEmpty() throws Exception {
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            assertEquals("", store.readText());
            DomainConfigDocument written = store.update(config -> config.blacklistUpdate("bingo.com"));
            assertEquals("blacklist:\n- bingo.com\ndomains: {}\n", written.text());
            assertEquals(written.text(), read(path));
        }
    }

    @Test
    void concurrentEditsAreAllKept() throws Exception {
        int writers = 4;
        int editsEach = 10;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<ZooKeeperConfigStore> stores = new ArrayList<>();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path);
                stores.add(store);
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < editsEach; i++) {
                        String domain = "w" + writer + "-" + i + ".com";
                        store.update(config -> config.blacklistUpdate(domain));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdown();
            stores.forEach(ZooKeeperConfigStore::close);
        }
        DomainConfig config = DomainConfigYaml.parseStrict(read(path)).config().orElseThrow();
        assertEquals(writers * editsEach, new HashSet<>(config.blacklist().orElseThrow()).size());
    }

    @Test
    void replaceTextReturnsWhatWasThere() throws Exception {
        WatcherEvents.write(other, path, "domains: {}\n");
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            assertEquals("domains: {}\n", store.replaceText("blacklist: [ebay.com]\n"));
            assertEquals("blacklist: [ebay.com]\n", store.readText());
        }
    }

    @Test
    void garbageInTheNodeIsALoadErrorAndIsNotOverwritten() throws Exception {
        WatcherEvents.write(other, path, "garbage");
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class,
                    () -> store.update(config -> config.blacklistUpdate("bingo.com")));
            assertEquals(ZooKeeperConfigException.Failure.LOAD, e.failure());
            assertEquals("Unable to load Zookeeper config", e.failure().message());
        }
        assertEquals("garbage", read(path));
    }

    /** A node an edit would lose part of is refused as the original answers a failed load, and left as it is. */
    @ParameterizedTest
    @ValueSource(strings = {"domains: [cnn.com]\n", "blacklist: {ebay.com: 1}\n", "- blacklist\n", "domains: {cnn.com: [\n"})
    void aNodeAnEditWouldLosePartOfIsALoadErrorAndIsNotOverwritten(String text) throws Exception {
        WatcherEvents.write(other, path, text);
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class,
                    () -> store.update(config -> config.domainUpdate("cnn.com", 60, 10, 1.0)));
            assertEquals(ZooKeeperConfigException.Failure.LOAD, e.failure());
        }
        assertEquals(text, read(path));
    }

    @Test
    void aNodeThatCannotBeWrittenIsAStoreError() throws Exception {
        other.create().creatingParentsIfNeeded()
                .withACL(List.of(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)))
                .forPath(path, "domains: {}\n".getBytes(StandardCharsets.UTF_8));
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class,
                    () -> store.update(config -> config.blacklistUpdate("bingo.com")));
            assertEquals("Unable to store Zookeeper config", e.failure().message());
            assertTrue(e.getMessage().contains("NoAuth"), e.getMessage());
        }
    }

    @Test
    void textTooLargeForAZooKeeperClientToReadIsAStoreErrorAndIsNotWritten() throws Exception {
        WatcherEvents.write(other, path, "domains: {}\n");
        String large = "#".repeat(ZooKeeperConfigStore.MAX_TEXT_BYTES) + "\n";
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class, () -> store.replaceText(large));
            assertEquals(ZooKeeperConfigException.Failure.STORE, e.failure());
            assertEquals("Unable to store Zookeeper config: " + path + " would hold " + (ZooKeeperConfigStore.MAX_TEXT_BYTES + 1)
                    + " bytes, more than the " + ZooKeeperConfigStore.MAX_TEXT_BYTES + " a ZooKeeper client reads in one node;"
                    + " nothing was written", e.getMessage());
            assertEquals("domains: {}\n", read(path));
            String largest = "#".repeat(ZooKeeperConfigStore.MAX_TEXT_BYTES - 1) + "\n";
            store.replaceText(largest);
            assertEquals(largest, store.readText(), "the largest text it writes is read back");
        }
    }

    @Test
    void aNodeOverTheLimitWrittenByAnotherToolMayBeShrunk() throws Exception {
        StringBuilder text = new StringBuilder("blacklist:\n");
        for (int entry = 0; text.length() <= ZooKeeperConfigStore.MAX_TEXT_BYTES + 300; entry++) {
            text.append(String.format("- d%06d.com%n", entry));
        }
        text.append("domains: {}\n");
        WatcherEvents.write(other, path, text.toString()); // a zkCli or a Python push, below the server's limit
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            store.update(config -> config.blacklistRemove("d000001.com"));

            String shrunk = read(path);
            assertTrue(shrunk.length() < text.length() && !shrunk.contains("d000001.com"), shrunk.length() + " characters");
            assertThrows(ZooKeeperConfigException.class, () -> store.update(config -> config.blacklistUpdate("more.com")),
                    "one that grows it is still refused");
        }
    }

    /** A node as large as a ZooKeeper server stores, written by another client ({@link WatcherEvents#writeLargest}). */
    @Test
    @Timeout(60)
    void aNodeAsLargeAsTheServerStoresIsRead() throws Exception {
        String largest = WatcherEvents.writeLargest(other, path);
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, path)) {
            Optional<String> read = store.readTextIfPresent();
            assertTrue(read.filter(largest::equals).isPresent(), () -> "read " + read.map(String::length) + " characters");
        }
    }

    @Test
    void zooKeeperDownIsALoadError() throws Exception {
        try (EmbeddedZooKeeper down = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-down"))) {
            down.stop();
            ZooKeeperConnection impatient = new ZooKeeperConnection(down.connectString(), Duration.ofSeconds(4),
                    Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofSeconds(1));
            try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(impatient, path)) {
                ZooKeeperConfigException e = assertThrows(ZooKeeperConfigException.class,
                        () -> store.update(config -> config.blacklistUpdate("bingo.com")));
                assertEquals(ZooKeeperConfigException.Failure.LOAD, e.failure());
                assertTrue(e.getMessage().startsWith("Unable to load Zookeeper config: ZooKeeper at "), e.getMessage());

                down.restart();
                store.update(config -> config.blacklistUpdate("bingo.com"));
                assertEquals("blacklist:\n- bingo.com\ndomains: {}\n", store.readText(), "the store reconnects by itself");
            }
        }
    }

    private String read(String node) throws Exception {
        return new String(other.getData().forPath(node), StandardCharsets.UTF_8);
    }
}
