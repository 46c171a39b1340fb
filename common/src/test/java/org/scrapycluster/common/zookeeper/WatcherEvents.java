package org.scrapycluster.common.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;

/** Records what a {@link ZooKeeperWatcher} tells its listeners, and writes nodes as another ZooKeeper client would. */
final class WatcherEvents implements ZooKeeperWatcher.ConfigListener, ZooKeeperWatcher.ValidityListener {

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

    static void write(CuratorFramework client, String path, String text) throws Exception {
        client.create().orSetData().creatingParentsIfNeeded().forPath(path, text.getBytes(StandardCharsets.UTF_8));
    }
}
