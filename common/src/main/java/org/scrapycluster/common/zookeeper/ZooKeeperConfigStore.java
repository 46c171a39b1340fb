package org.scrapycluster.common.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.PathUtils;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException.Failure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes the domain config node for the Redis monitor's zookeeper job and for
 * {@code zookeeper push / pull}. Every write is conditional on the version that was read, so two
 * writers at once never lose each other's edit: the loser reads again and re-applies its edit.
 * The node (and its parents) is created empty when missing, as the original does.
 *
 * <p>An edit changes one part of the document and writes the rest back as it was read
 * ({@link DomainConfigDocument}). Failures carry the original's messages: {@code Unable to load Zookeeper config}
 * when the node cannot be read (ZooKeeper unreachable) or edited (text that is not a YAML mapping, or whose
 * {@code domains} or {@code blacklist} is of another kind — then nothing is written, where the original would
 * overwrite the node with only the new edit, or fail), {@code Unable to store Zookeeper config} when it cannot be written.
 */
public final class ZooKeeperConfigStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperConfigStore.class);
    private static final int MAX_ATTEMPTS = 20;
    private static final long CONFLICT_PAUSE_MILLIS = 10;
    /**
     * The most bytes of text the node is given: a ZooKeeper client with ZooKeeper's defaults ({@code zkCli.sh}, other
     * Java tools) takes at most 1 MiB in one answer (its {@code jute.maxbuffer}), the node's data and the hundred bytes
     * around it, and retries for minutes when an answer is larger (ours take more, {@link
     * ZooKeeperConnection#MAX_ANSWER_BYTES}); a server with its defaults takes no larger write, and dropped the
     * connection at each retry of one (docs/redis-monitor.md, "zookeeper push / pull").
     */
    public static final int MAX_TEXT_BYTES = 1024 * 1024 - 1024;

    private final ZooKeeperConnection connection;
    private final String path;
    private final CuratorFramework client;
    /**
     * Whether the connection was lost, or never made, and is not back yet, so that an outage is said once, and its end
     * once.
     */
    private final AtomicBoolean away = new AtomicBoolean();

    private ZooKeeperConfigStore(ZooKeeperConnection connection, String path) {
        this.connection = connection;
        this.path = path;
        this.client = connection.newClient();
        client.getConnectionStateListenable().addListener((curator, state) -> connectionChanged(state));
        client.start();
    }

    private void connectionChanged(ConnectionState state) {
        if (!state.isConnected() && away.compareAndSet(false, true)) {
            LOG.warn("connection to ZooKeeper at {} is {}; the domain config {} can be neither read nor written until it is back",
                    connection.connectString(), state, path);
        } else if (state.isConnected() && away.compareAndSet(true, false)) {
            LOG.info("connection to ZooKeeper at {} is back", connection.connectString());
        }
    }

    /**
     * Says once, in the background, when no connection is made within the connection timeout from now: a ZooKeeper that
     * never answers changes no connection state for the outage to be told by. For a service, which goes on while
     * ZooKeeper is away; a command fails in words of its own instead.
     */
    public void sayWhenUnanswered() {
        Thread.ofVirtual().name("zookeeper-store-first-connection").start(this::awaitFirstConnection);
    }

    private void awaitFirstConnection() {
        try {
            boolean connected = client.blockUntilConnected((int) connection.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!connected && client.getState() == CuratorFrameworkState.STARTED && away.compareAndSet(false, true)) {
                LOG.warn("ZooKeeper at {} does not answer yet; the domain config {} can be neither read nor written until it does",
                        connection.connectString(), path);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A store of the node {@code path}, with its own client (which reconnects by itself while the store is open).
     *
     * @throws IllegalArgumentException when {@code path} is not a valid ZooKeeper path
     */
    public static ZooKeeperConfigStore open(ZooKeeperConnection connection, String path) {
        PathUtils.validatePath(Objects.requireNonNull(path, "path"));
        return new ZooKeeperConfigStore(Objects.requireNonNull(connection, "connection"), path);
    }

    /** The node's text ({@code ""} when it is empty or was missing). */
    public String readText() throws ZooKeeperConfigException {
        return read().text();
    }

    /** The node's text as it is, or none when the node does not exist; unlike {@link #readText()} it creates nothing. */
    public Optional<String> readTextIfPresent() throws ZooKeeperConfigException {
        return readIfPresent().map(Versioned::text);
    }

    /**
     * Reads the config, applies {@code edit} and writes the result if the node did not change in
     * between (otherwise reads and applies again).
     *
     * @return the config as written
     */
    public DomainConfigDocument update(UnaryOperator<DomainConfigDocument> edit) throws ZooKeeperConfigException {
        return update(edit, step -> { });
    }

    /**
     * {@link #update(UnaryOperator)}, telling {@code steps} which half of the read-modify-write starts:
     * {@link Failure#LOAD} before each read, {@link Failure#STORE} before each write. A caller that stops
     * waiting so knows which one it gave up on, and whether the write may have landed.
     */
    public DomainConfigDocument update(UnaryOperator<DomainConfigDocument> edit, Consumer<Failure> steps)
            throws ZooKeeperConfigException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            steps.accept(Failure.LOAD);
            Versioned current = read();
            DomainConfigDocument document;
            try {
                document = DomainConfigDocument.read(current.text());
            } catch (IllegalArgumentException e) {
                throw new ZooKeeperConfigException(Failure.LOAD, path + " does not hold a domain config: " + e.getMessage(), null);
            }
            if (!document.problems().isEmpty()) {
                LOG.warn("{} has parts crawlers ignore: {}", path, document.problems());
            }
            DomainConfigDocument edited = edit.apply(document);
            steps.accept(Failure.STORE);
            if (write(edited.text(), current)) {
                return edited;
            }
            pauseAfterConflict(attempt);
        }
        throw conflict();
    }

    /**
     * Replaces the node's text with {@code text} (as {@code push} does, after validating it).
     *
     * @return the text it had before
     */
    public String replaceText(String text) throws ZooKeeperConfigException {
        Objects.requireNonNull(text, "text");
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Versioned current = read();
            if (write(text, current)) {
                return current.text();
            }
            pauseAfterConflict(attempt);
        }
        throw conflict();
    }

    /** Whether the store's client is connected to ZooKeeper now (for health checks; never waits). */
    public boolean isConnected() {
        return client.getZookeeperClient().isConnected();
    }

    @Override
    public void close() {
        client.close();
    }

    /** The node, created empty when it is missing. */
    private Versioned read() throws ZooKeeperConfigException {
        Optional<Versioned> present = readIfPresent();
        if (present.isPresent()) {
            return present.get();
        }
        createEmpty();
        return read();
    }

    private Optional<Versioned> readIfPresent() throws ZooKeeperConfigException {
        awaitConnection(Failure.LOAD);
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new Versioned(data == null ? "" : new String(data, StandardCharsets.UTF_8), stat.getVersion()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw failure(Failure.LOAD, "cannot read " + path, e);
        }
    }

    private void createEmpty() throws ZooKeeperConfigException {
        try {
            client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            LOG.debug("{} was created by another writer", path);
        } catch (Exception e) {
            throw failure(Failure.LOAD, "cannot create " + path, e);
        }
    }

    /**
     * Writes {@code text} if the node is still as it was read ({@code current}'s version); false when someone wrote in
     * between. A text over the size limit is refused unless it is no larger than the node's (written by another tool,
     * which a removal may shrink).
     */
    private boolean write(String text, Versioned current) throws ZooKeeperConfigException {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        int version = current.version();
        if (data.length > MAX_TEXT_BYTES && data.length > current.text().getBytes(StandardCharsets.UTF_8).length) {
            throw new ZooKeeperConfigException(Failure.STORE, path + " would hold " + data.length + " bytes, more than the "
                    + MAX_TEXT_BYTES + " a ZooKeeper client reads in one node; nothing was written", null);
        }
        awaitConnection(Failure.STORE);
        try {
            client.setData().withVersion(version).forPath(path, data);
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            LOG.debug("{} changed while it was being edited; editing again", path);
            return false;
        } catch (KeeperException.NoAuthException e) {
            throw failure(Failure.STORE, "cannot write " + path + ", whose ACL does not let this client write (ZOOKEEPER_DIGEST, "
                    + "docs/operations.md \"ZooKeeper credentials\")", e);
        } catch (Exception e) {
            throw failure(Failure.STORE, "cannot write " + path, e);
        }
    }

    private void awaitConnection(Failure failure) throws ZooKeeperConfigException {
        try {
            if (!client.blockUntilConnected(Math.toIntExact(connection.connectionTimeout().toMillis()), TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperConfigException(failure, "ZooKeeper at " + connection.connectString() + " does not answer", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperConfigException(failure, "interrupted while waiting for ZooKeeper", e);
        }
    }

    /** A random pause growing with the attempts, so that writers that collided do not collide again. */
    private static void pauseAfterConflict(int attempt) throws ZooKeeperConfigException {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, CONFLICT_PAUSE_MILLIS * attempt + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperConfigException(Failure.STORE, "interrupted while retrying a conflicting write", e);
        }
    }

    private ZooKeeperConfigException conflict() {
        return new ZooKeeperConfigException(Failure.STORE,
                path + " kept changing; gave up after " + MAX_ATTEMPTS + " attempts", null);
    }

    private static ZooKeeperConfigException failure(Failure failure, String detail, Exception cause) {
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new ZooKeeperConfigException(failure, detail + ": " + cause, cause);
    }

    /** The node's text and the version it was read at. */
    private record Versioned(String text, int version) {
    }
}
