package org.scrapycluster.common.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Records what a {@link ZooKeeperWatcher} tells its listeners, and writes nodes as another ZooKeeper client would. */
final class WatcherEvents implements ZooKeeperWatcher.ConfigListener, ZooKeeperWatcher.ValidityListener {

    /** The logger the tests' watchers write to, a service's in a service: the class's own name. */
    static final Logger WATCHER_LOG = LoggerFactory.getLogger(ZooKeeperWatcher.class);

    /** A validity change as the listener heard it. */
    record Validity(boolean valid, String reason) {
    }

    final List<String> texts = new CopyOnWriteArrayList<>();
    final List<DomainConfig> configs = new CopyOnWriteArrayList<>();
    final List<Validity> validity = new CopyOnWriteArrayList<>();

    @Override
    public void configChanged(String text) {
        texts.add(text);
        DomainConfigYaml.parseLenient(text).config().ifPresent(configs::add);
    }

    @Override
    public void validityChanged(boolean valid, String reason) {
        validity.add(new Validity(valid, reason));
    }

    String lastText() {
        return texts.isEmpty() ? null : texts.getLast();
    }

    Validity lastValidity() {
        return validity.isEmpty() ? null : validity.getLast();
    }

    /** A started client of another process, with short timeouts. */
    static CuratorFramework writer(String connectString) {
        CuratorFramework client = new ZooKeeperConnection(connectString, Duration.ofSeconds(10), Duration.ofSeconds(2),
                Duration.ofMillis(100), Duration.ofSeconds(1)).newClient();
        client.start();
        return client;
    }

    /**
     * Writes a comment as large as a ZooKeeper server with its default limits takes (1 MiB less a byte a request) into
     * {@code path} and returns it. Written by another client (a Python {@code zookeeper push}, {@code zkCli.sh}), such
     * a node is read by an answer larger than the write's request whenever the path is shorter than 68 bytes (the
     * answer carries the node's stat where the request carried its path), so larger than the 1 MiB a ZooKeeper client
     * takes by default: a client with that default retried for minutes as the connection dropped at each answer.
     */
    static String writeLargest(CuratorFramework client, String path) throws Exception {
        int serverMaxRequestBytes = 1024 * 1024 - 1;
        int setDataRequestBytes = 20 + path.length(); // header, version, the lengths of path and data, the path
        String largest = "#".repeat(serverMaxRequestBytes - setDataRequestBytes - 1) + "\n";
        client.create().orSetData().creatingParentsIfNeeded().forPath(path);
        client.setData().forPath(path, largest.getBytes(StandardCharsets.UTF_8));
        return largest;
    }

    static void write(CuratorFramework client, String path, String text) throws Exception {
        client.create().orSetData().creatingParentsIfNeeded().forPath(path, text.getBytes(StandardCharsets.UTF_8));
    }
}
