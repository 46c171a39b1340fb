package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Plain ZooKeeper clients of the embedded server, as a tool of the ZooKeeper project would connect. */
final class ZooKeeperClients {

    private ZooKeeperClients() {
    }

    /** A client of {@code connectString}, once it is connected (at most 60 s). */
    static ZooKeeper connected(String connectString) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(60, TimeUnit.SECONDS), "connected to ZooKeeper at " + connectString);
        return zk;
    }
}
