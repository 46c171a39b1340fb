package org.scrapycluster.rest.live;

import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.WatchedNode;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.common.zookeeper.ZooKeeperWatcher;

/**
 * The domain config of ZooKeeper ({@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID}) as the crawlers
 * follow it: watched live, read as leniently as they read it (parts they ignore are left out), and
 * {@link DomainConfig#EMPTY} until ZooKeeper first answers, which {@link #known()} tells apart from an
 * empty config read. Watching starts in the background, so the gateway starts without waiting for ZooKeeper.
 */
final class DomainConfigView implements AutoCloseable {

    private final ZooKeeperConnection connection;
    private final String path;
    private volatile DomainConfig config = DomainConfig.EMPTY;
    private volatile boolean valid;
    private volatile boolean known;
    private ZooKeeperWatcher watcher;
    private boolean closed;

    DomainConfigView(ZooKeeperConnection connection, String path) {
        this.connection = connection;
        this.path = path;
    }

    void start() {
        Thread.ofVirtual().name("rest-zookeeper-view").start(() -> {
            ZooKeeperWatcher started = ZooKeeperWatcher.start(connection, WatchedNode.config(path),
                    text -> config = DomainConfigYaml.parseApplied(text).config().orElse(DomainConfig.EMPTY),
                    (isValid, reason) -> valid = isValid);
            // completes after the first text read is delivered, so the config is that text once known
            started.firstRead().thenRun(() -> known = true);
            synchronized (this) {
                if (!closed) {
                    watcher = started;
                    return;
                }
            }
            started.close();
        });
    }

    /** The config last read. */
    DomainConfig config() {
        return config;
    }

    /**
     * Whether ZooKeeper has answered the first read of the node: until then {@link #config()} is empty because
     * nothing is known, not because the node is.
     */
    boolean known() {
        return known;
    }

    /** Whether ZooKeeper is connected now. */
    boolean connected() {
        return valid;
    }

    /** The node watched. */
    String path() {
        return path;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (watcher != null) {
            watcher.close();
        }
    }
}
