package org.scrapycluster.common.zookeeper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedZooKeeper;
import org.scrapycluster.embedded.junit.CapturedLog;

/** The store, as the Redis monitor holds it, says a ZooKeeper outage once and its end once, and works after it. */
class ZooKeeperConfigStoreOutageTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Test
    void anOutageIsSaidOnceAndItsEndOnce() throws Exception {
        EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(0, DataDirectory.temporary("zk-store-outage"));
        ZooKeeperConnection connection = new ZooKeeperConnection(zookeeper.connectString(), Duration.ofSeconds(4), Duration.ofSeconds(2),
                Duration.ofMillis(100), Duration.ofSeconds(1));
        try (CapturedLog log = CapturedLog.start(ZooKeeperConfigStore.class, Level.INFO);
                ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, "/scrapy-cluster/crawler/outage")) {
            assertEquals("", store.readText());

            zookeeper.stop();
            await().atMost(PATIENCE).until(() -> !log.events().isEmpty());
            Thread.sleep(6_000); // past the session's 4 s, so that the lost session is told too, had it been said again
            zookeeper.restart();
            await().atMost(PATIENCE).until(() -> log.events().size() >= 2);
            assertEquals("", store.readText(), "reads again");

            List<String> said = log.events().stream().map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
            assertEquals(2, said.size(), said.toString());
            assertEquals("WARN connection to ZooKeeper at " + zookeeper.connectString() + " is SUSPENDED; the domain config "
                    + "/scrapy-cluster/crawler/outage can be neither read nor written until it is back", said.get(0));
            assertEquals("INFO connection to ZooKeeper at " + zookeeper.connectString() + " is back", said.get(1));
        } finally {
            zookeeper.close();
        }
    }

    @Test
    void aZooKeeperThatDoesNotAnswerAtTheStartIsSaidOnceAndItsComingOnce() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String hosts = "127.0.0.1:" + port;
        ZooKeeperConnection connection = new ZooKeeperConnection(hosts, Duration.ofSeconds(4), Duration.ofSeconds(1),
                Duration.ofMillis(100), Duration.ofSeconds(1));
        EmbeddedZooKeeper zookeeper = null;
        try (CapturedLog log = CapturedLog.start(ZooKeeperConfigStore.class, Level.INFO);
                ZooKeeperConfigStore store = ZooKeeperConfigStore.open(connection, "/scrapy-cluster/crawler/late")) {
            store.sayWhenUnanswered();
            await().atMost(PATIENCE).until(() -> !log.events().isEmpty());
            zookeeper = EmbeddedZooKeeper.start(port, DataDirectory.temporary("zk-store-late"));
            await().atMost(PATIENCE).until(() -> log.events().size() >= 2);
            assertEquals("", store.readText(), "reads once it answers");

            List<String> said = log.events().stream().map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
            assertEquals(List.of("WARN ZooKeeper at " + hosts + " does not answer yet; the domain config "
                    + "/scrapy-cluster/crawler/late can be neither read nor written until it does",
                    "INFO connection to ZooKeeper at " + hosts + " is back"), said);
        } finally {
            if (zookeeper != null) {
                zookeeper.close();
            }
        }
    }
}
