package org.scrapycluster.rest.live;

import java.util.Optional;

import org.scrapycluster.common.zookeeper.DomainConfig;
import org.scrapycluster.common.zookeeper.DomainConfigYaml;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.common.zookeeper.ZooKeeperWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The domain config of ZooKeeper ({@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID}) as the crawlers
 * follow it: watched live, read as leniently as they read it (parts they ignore are left out), and
 * {@link DomainConfig#EMPTY} until ZooKeeper first answers, which {@link #known()} tells apart from an
 * empty config read. As crawlers do, it keeps the last good config when the node holds text that is no config, and
 * the blacklist when a config names none (docs/throttling.md). Watching starts in the background, so the gateway
 * starts without waiting for ZooKeeper.
 */
final class DomainConfigView implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DomainConfigView.class);

    private final ZooKeeperConnection connection;
    private final String path;
    private volatile DomainConfig config = DomainConfig.EMPTY;
    private volatile boolean valid;
    private volatile boolean known;
    /** Whether a config was read (on the watcher's thread only); until one is, text that is no config leaves it unknown. */
    private boolean applied;
    /** Whether the node holds text that is no config and none was read before: crawlers wait for one. */
    private volatile boolean unusable;
    private ZooKeeperWatcher watcher;
    private boolean closed;

    DomainConfigView(ZooKeeperConnection connection, String path) {
        this.connection = connection;
        this.path = path;
    }

    void start() {
        Thread.ofVirtual().name("rest-zookeeper-view").start(() -> {
            ZooKeeperWatcher started = ZooKeeperWatcher.start(connection, path,
                    this::read,
                    (isValid, reason) -> valid = isValid, LOG);
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

    /** Reads the node's text as crawlers do: a config follows the one in force; text that is no config changes nothing. */
    private void read(String text) {
        Optional<DomainConfig> next = text.isBlank() ? Optional.of(DomainConfig.EMPTY) : DomainConfigYaml.parseApplied(text).config();
        if (next.isPresent()) {
            config = config.followedBy(next.get());
            applied = true;
        }
        unusable = next.isEmpty() && !applied;
    }

    /** The config in force. */
    DomainConfig config() {
        return config;
    }

    /**
     * Whether ZooKeeper has answered the first read of the node, with a config or none (an empty or missing node): until
     * then {@link #config()} is empty because nothing is known, not because the node is.
     */
    boolean known() {
        return known && !unusable;
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
