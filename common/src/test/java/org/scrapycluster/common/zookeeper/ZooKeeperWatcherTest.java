package org.scrapycluster.common.zookeeper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;

import ch.qos.logback.classic.Level;

@ExtendWith(SharedStack.class)
class ZooKeeperWatcherTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String CNN = "domains:\n  cnn.com:\n    hits: 15\n    scale: 0.9\n    window: 60\n";
    private static final String EBAY = "blacklist:\n- ebay.com\ndomains: {}\n";

    private final WatcherEvents events = new WatcherEvents();
    private ZooKeeperConnection connection;
    private CuratorFramework other;
    private String root;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        connection = ZooKeeperConnection.to(stack.zookeeperConnect());
        other = WatcherEvents.writer(stack.zookeeperConnect());
        root = "/watcher-test/" + UUID.randomUUID();
    }

    @AfterEach
    void disconnect() {
        other.close();
    }

    @Test
    void createsTheMissingNodeAndDeliversEveryChange() throws Exception {
        String path = root + "/crawler/all";
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, path, events, events, WatcherEvents.WATCHER_LOG)) {
            await().atMost(PATIENCE).until(() -> other.checkExists().forPath(path) != null);
            await().atMost(PATIENCE).until(watcher::isValid);
            assertEquals(List.of(), events.texts, "an empty node delivers nothing");

            long written = System.nanoTime();
            WatcherEvents.write(other, path, CNN);
            await().atMost(PATIENCE).until(() -> CNN.equals(events.lastText()));
            System.out.printf("config delivered %.1f ms after the write%n", (System.nanoTime() - written) / 1e6);
            assertEquals(13, events.configs.getLast().throttles().get("cnn.com").effectiveHits());

            WatcherEvents.write(other, path, CNN);
            WatcherEvents.write(other, path, EBAY);
            await().atMost(PATIENCE).until(() -> EBAY.equals(events.lastText()));
            assertEquals(Optional.of(List.of("ebay.com")), events.configs.getLast().blacklist());

            other.delete().forPath(path);
            await().atMost(PATIENCE).until(() -> "".equals(events.lastText()));
            assertEquals(List.of(CNN, EBAY, ""), events.texts, "the same text twice is delivered once");
            assertEquals("", watcher.contents());
            assertTrue(watcher.isValid());
            // a ZooKeeper just started may drop the first connection (a blip, told as such); connected is what lasts
            assertEquals(new WatcherEvents.Validity(true, "connected"), events.validity.getLast(), events.validity.toString());
            assertTrue(events.validity.stream().allMatch(told -> told.valid()
                    || told.reason().equals(ZooKeeperWatcher.CONNECTION_INTERRUPTED)), events.validity.toString());
        }
    }

    @Test
    void deliversANonEmptyNodeOnceAtStart() throws Exception {
        String path = root + "/all";
        WatcherEvents.write(other, path, CNN);
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, path, events, events, WatcherEvents.WATCHER_LOG)) {
            assertEquals(List.of(CNN), events.texts, "delivered before start returns");
            assertEquals(CNN, watcher.contents());
        }
    }

    /** A node as large as a ZooKeeper server stores, written by another client ({@link WatcherEvents#writeLargest}). */
    @Test
    void deliversANodeAsLargeAsTheServerStores() throws Exception {
        String path = root + "/crawler/all";
        String largest = WatcherEvents.writeLargest(other, path);
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, path, events, events, WatcherEvents.WATCHER_LOG)) {
            assertTrue(largest.equals(watcher.contents()),
                    () -> "delivered before start returns, not " + watcher.contents().length() + " characters");
            assertTrue(watcher.isValid());
        }
    }

    /**
     * A watcher closed as soon as it has started (a crawler stopped within a second of its start), while its background
     * create of the missing node may still be running: the close lets the create finish before it closes the client,
     * so neither Curator nor the watcher logs a warning or an error.
     */
    @Test
    void aWatcherClosedAtOnceLogsNoWarningNorError() {
        try (CapturedLog curator = CapturedLog.start("org.apache.curator", Level.WARN);
                CapturedLog client = CapturedLog.start("org.apache.zookeeper.ClientCnxn", Level.WARN);
                CapturedLog watcher = CapturedLog.start(ZooKeeperWatcher.class, Level.WARN)) {
            for (int i = 0; i < 20; i++) {
                String path = root + "/" + i + "/crawler/all";
                ZooKeeperWatcher.start(connection, path, events, events, WatcherEvents.WATCHER_LOG).close();
            }
            assertEquals(List.of(), Stream.of(curator, client, watcher).flatMap(log -> log.lines().stream()).toList());
        }
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheWatcher() throws Exception {
        String path = root + "/all";
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        ZooKeeperWatcher.ConfigListener failing = text -> {
            seen.add(text);
            throw new IllegalStateException("listener bug");
        };
        try (ZooKeeperWatcher watcher = ZooKeeperWatcher.start(connection, path, failing, events, WatcherEvents.WATCHER_LOG)) {
            assertNotNull(watcher);
            WatcherEvents.write(other, path, CNN);
            await().atMost(PATIENCE).until(() -> seen.contains(CNN));
            WatcherEvents.write(other, path, EBAY);
            await().atMost(PATIENCE).until(() -> seen.contains(EBAY));
        }
    }
}
