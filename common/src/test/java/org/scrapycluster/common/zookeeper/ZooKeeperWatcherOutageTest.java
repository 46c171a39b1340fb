package org.scrapycluster.common.zookeeper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
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
    private final DataDirectory dataDirectory = DataDirectory.temporary("zk-outage");
    private EmbeddedZooKeeper zookeeper;
    private ZooKeeperConnection connection;

    @BeforeEach
    void startZooKeeper() {
        zookeeper = EmbeddedZooKeeper.start(0, dataDirectory);
        connection = new ZooKeeperConnection(zookeeper.connectString(), Duration.ofSeconds(4), Duration.ofSeconds(2),
                Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    @AfterEach
    void stopZooKeeper() {
        zookeeper.close(); // and its data directory
    }

    @Test
    void keepsTheLastConfigThroughAnOutageAndDeliversAfterIt() throws Exception {
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, PATH, events, events, WatcherEvents.WATCHER_LOG)) {
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
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, PATH, events, events, WatcherEvents.WATCHER_LOG)) {
            assertFalse(watcher.isValid());
            assertEquals(List.of(), events.texts);

            zookeeper.restart();
            await().atMost(PATIENCE).until(watcher::isValid);
            write(FIRST);
            await().atMost(PATIENCE).until(() -> FIRST.equals(events.lastText()));
        }
    }

    @Test
    void aNodeWrittenAgainAtTheSameVersionWhileTheConnectionWasAwayIsDelivered() throws Exception {
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, PATH, events, events, WatcherEvents.WATCHER_LOG)) {
            redeployedWithoutItsDataAfterReading(FIRST, watcher);
            write(SECOND); // created anew: the version the first text had

            await().atMost(PATIENCE).until(() -> SECOND.equals(events.lastText()));
            assertEquals(List.of(FIRST, SECOND), events.texts);
        }
    }

    @Test
    void aNodeDeletedWhileTheConnectionWasAwayDeliversItsLoss() throws Exception {
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, PATH, events, events, WatcherEvents.WATCHER_LOG)) {
            redeployedWithoutItsDataAfterReading(FIRST, watcher);

            await().atMost(PATIENCE).until(() -> "".equals(events.lastText()));
            assertEquals(List.of(FIRST, ""), events.texts);
        }
    }

    @Test
    void aReadZooKeeperRefusesIsNoFirstReadAndIsTriedAgain() throws Exception {
        try (CuratorFramework other = WatcherEvents.writer(zookeeper.connectString())) {
            other.create().creatingParentsIfNeeded().withACL(List.of(new ACL(ZooDefs.Perms.WRITE | ZooDefs.Perms.ADMIN,
                    ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath(PATH, FIRST.getBytes(StandardCharsets.UTF_8));
            try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, PATH, events, events, WatcherEvents.WATCHER_LOG)) {
                await().atMost(PATIENCE).until(() -> watcher.problem().orElse("").startsWith("cannot read " + PATH));
                assertFalse(watcher.firstRead().toCompletableFuture().isDone(), "a refusal says nothing of the node's text");
                assertEquals(List.of(), events.texts);

                other.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(PATH);

                await().atMost(PATIENCE).until(() -> FIRST.equals(events.lastText()));
                await().atMost(PATIENCE).until(watcher::isValid);
                watcher.firstRead().toCompletableFuture().get(1, TimeUnit.SECONDS);
            }
        }
    }

    /** The watcher delivers {@code text}; then ZooKeeper stops, loses its data and starts again. */
    private void redeployedWithoutItsDataAfterReading(String text, ZooKeeperWatcher watcher) throws Exception {
        write(text);
        await().atMost(PATIENCE).until(() -> text.equals(events.lastText()));
        zookeeper.stop();
        await().atMost(PATIENCE).until(() -> !watcher.isValid());
        wipe(dataDirectory.path());
        zookeeper.restart();
    }

    /** Deletes what {@code directory} holds, keeping it. */
    private static void wipe(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(directory)) {
                    Files.delete(path);
                }
            }
        }
    }

    private void write(String text) throws Exception {
        try (CuratorFramework other = WatcherEvents.writer(zookeeper.connectString())) {
            WatcherEvents.write(other, PATH, text);
        }
    }
}
