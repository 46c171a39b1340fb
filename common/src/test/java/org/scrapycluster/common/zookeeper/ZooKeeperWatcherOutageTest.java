package org.scrapycluster.common.zookeeper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedZooKeeper;

/** The watcher against a private ZooKeeper that the test stops and starts again. */
class ZooKeeperWatcherOutageTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String PATH = "/scrapy-cluster/crawler/all";
    private static final String FIRST = "domains:\n  cnn.com: {window: 60, hits: 10}\n";
    private static final String SECOND = "domains:\n  cnn.com: {window: 60, hits: 20}\n";

    private final WatcherEvents events = new WatcherEvents();
    private EmbeddedZooKeeper zookeeper;
    private ZooKeeperConnection connection;

    @BeforeEach
    void startZooKeeper() {
        zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-outage"));
        connection = new ZooKeeperConnection(zookeeper.connectString(), Duration.ofSeconds(4), Duration.ofSeconds(2),
                Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    @AfterEach
    void stopZooKeeper() {
        zookeeper.close();
    }

    @Test
    void keepsTheLastConfigThroughAnOutageAndDeliversAfterIt() throws Exception {
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, WatchedNode.config(PATH), events, events)) {
            write(FIRST);
            await().atMost(PATIENCE).until(() -> FIRST.equals(events.lastText()));

            zookeeper.stop();
            await().atMost(PATIENCE).until(() -> !watcher.isValid());
            // the watcher flips isValid() first, then tells its validity listener
            await().atMost(PATIENCE).untilAsserted(() ->
                    assertEquals(new WatcherEvents.Validity(false, ZooKeeperWatcher.CONNECTION_INTERRUPTED), events.lastValidity()));
            // Long enough for the session to expire (4 s): the config must still not be dropped.
            Thread.sleep(6_000);
            assertEquals(FIRST, watcher.contents());
            assertEquals(List.of(FIRST), events.texts);

            zookeeper.restart();
            await().atMost(PATIENCE).until(watcher::isValid);
            write(SECOND);
            await().atMost(PATIENCE).until(() -> SECOND.equals(events.lastText()));
            assertEquals(List.of(FIRST, SECOND), events.texts);
            // told on the connection's thread, in no set order with the text delivered by the node's cache
            await().atMost(PATIENCE).untilAsserted(() ->
                    assertEquals(new WatcherEvents.Validity(true, "connected"), events.lastValidity()));
        }
    }

    @Test
    void startsWhileZooKeeperIsDownAndDeliversWhenItComes() throws Exception {
        zookeeper.stop();
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, WatchedNode.config(PATH), events, events)) {
            assertFalse(watcher.isValid());
            assertEquals(List.of(), events.texts);

            zookeeper.restart();
            await().atMost(PATIENCE).until(watcher::isValid);
            write(FIRST);
            await().atMost(PATIENCE).until(() -> FIRST.equals(events.lastText()));
        }
    }

    private void write(String text) throws Exception {
        try (CuratorFramework other = WatcherEvents.writer(zookeeper.connectString())) {
            WatcherEvents.write(other, PATH, text);
        }
    }
}
