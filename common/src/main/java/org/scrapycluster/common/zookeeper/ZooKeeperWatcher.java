package org.scrapycluster.common.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.PathUtils;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;

/**
 * Watches one ZooKeeper node and hands its text to a listener: once at start when the node is
 * not empty, then every time the text changes (an emptied or deleted node delivers {@code ""}).
 * This is how crawlers follow the domain config live. The node is created (empty, with its parents) when it is missing.
 *
 * <p>ZooKeeper outages do not hurt: start-up does not fail when ZooKeeper is down (it logs a
 * warning and delivers once ZooKeeper comes), the last delivered text stays in force while the
 * connection is away, and the client reconnects for as long as the watcher is open. A user that must not act
 * before the node's text is known learns from {@link #firstRead()} when ZooKeeper first answered. Validity
 * goes false when the connection is suspended or lost (reason {@value #CONNECTION_INTERRUPTED})
 * and true again when it is back; the validity listener hears every flip, and every change of
 * the reason while invalid.
 *
 * <p>The node is read again whenever the connection comes back, by a cache made anew: Curator's cache tells a
 * change by the node's version alone, so a node deleted and written again while the connection was away (a ZooKeeper
 * redeployed without its data, a wipe and a push) holds other text at the same version, which it would never deliver.
 * A read that fails while connected (an ACL that refuses this client, a read that ran out of retries) is no answer: the
 * first read is not complete, the watcher is invalid with the reason {@code cannot read <path>: <error>}, and the node
 * is read again every {@value #READ_RETRY_SECONDS} seconds until a read succeeds.
 *
 * <p>Listeners are called one at a time, on the watcher's own thread, never concurrently.
 */
public final class ZooKeeperWatcher implements AutoCloseable {

    /** The error of an outage, as the original reports it. */
    public static final String CONNECTION_INTERRUPTED = "Connection interrupted with Zookeeper, re-establishing";

    private static final long READ_RETRY_SECONDS = 5;

    /** Receives the text of the config node. */
    @FunctionalInterface
    public interface ConfigListener {
        void configChanged(String text);
    }

    /** Hears when the watcher becomes valid or invalid, and why. */
    @FunctionalInterface
    public interface ValidityListener {
        void validityChanged(boolean valid, String reason);
    }

    private final ZooKeeperConnection connection;
    private final String path;
    /** The user's logger, so that a process of several services ({@code standalone}) tells whose watcher speaks. */
    private final Logger log;
    private final ConfigListener configs;
    private final ValidityListener validity;
    private final ExecutorService events;
    private final CuratorFramework client;
    private final CompletableFuture<Void> firstRead = new CompletableFuture<>();

    // Confined to the events thread.
    private final List<CompletableFuture<Void>> creates = new ArrayList<>();
    private CuratorCache nodeCache;
    private boolean connected;

    /** Why the last read of the node by its cache failed; set on Curator's thread, taken once its cache is loaded. */
    private final AtomicReference<String> readFailure = new AtomicReference<>();
    /** The failure last told at WARN, so that a read failing the same way every few seconds is told once. */
    private String failureTold;

    private volatile String delivered = "";
    private volatile boolean valid;
    private volatile String reason = "not connected yet";
    private volatile boolean closed;

    private ZooKeeperWatcher(ZooKeeperConnection connection, String path, ConfigListener configs, ValidityListener validity,
            Logger log) {
        this.connection = connection;
        this.path = path;
        this.log = log;
        this.configs = configs;
        this.validity = validity;
        this.events = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zookeeper-watcher " + path);
            thread.setDaemon(true);
            return thread;
        });
        this.client = connection.newClient();
    }

    /**
     * Starts watching the node at {@code path} ({@code ZOOKEEPER_ASSIGN_PATH + ZOOKEEPER_ID}). Waits up to the
     * connection timeout for the first delivery; when ZooKeeper does not answer by then, logs a warning and returns, and
     * the first delivery comes later. What the watcher logs goes to {@code log}, the user's.
     *
     * @throws IllegalArgumentException when {@code path} is no ZooKeeper path
     */
    public static ZooKeeperWatcher start(ZooKeeperConnection connection, String path, ConfigListener configs,
            ValidityListener validity, Logger log) {
        PathUtils.validatePath(Objects.requireNonNull(path, "path"));
        ZooKeeperWatcher watcher = new ZooKeeperWatcher(Objects.requireNonNull(connection, "connection"), path,
                Objects.requireNonNull(configs, "configs"), Objects.requireNonNull(validity, "validity"),
                Objects.requireNonNull(log, "log"));
        watcher.begin();
        return watcher;
    }

    private void begin() {
        client.getConnectionStateListenable().addListener((curator, state) -> connectionChanged(state), events);
        client.start();
        events.execute(() -> nodeCache = nodeCache());
        try {
            firstRead.get(connection.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("ZooKeeper at {} does not answer yet; {} will be read as soon as it does",
                    connection.connectString(), path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the first read is never completed exceptionally", e);
        }
    }

    /**
     * Completes, on the watcher's thread, once ZooKeeper has answered the first read of the node: after the text read
     * has been delivered, or found empty or missing, which delivers nothing. Until then {@link #contents()} is {@code ""}
     * because nothing is known, not because the node is empty.
     */
    public CompletionStage<Void> firstRead() {
        return firstRead.minimalCompletionStage();
    }

    /** Whether the watcher is connected, and no read of the node has failed since. */
    public boolean isValid() {
        return valid;
    }

    /** Why the watcher is not valid, when it is not: {@value #CONNECTION_INTERRUPTED}, or a read that failed. */
    public Optional<String> problem() {
        return valid ? Optional.empty() : Optional.of(reason);
    }

    /** The text last delivered, {@code ""} before the first delivery. */
    public String contents() {
        return delivered;
    }

    /** {@link #close(Duration) Closes}, waiting at most the connection timeout. */
    @Override
    public void close() {
        close(connection.connectionTimeout());
    }

    /**
     * Stops watching and closes the client, waiting at most {@code wait} for the client to close (with ZooKeeper away it
     * may not); no listener is called afterwards. A create of the node still running (a watcher closed as soon as it
     * has started) is given half of {@code wait} to end first: closing the client interrupts it, which Curator logs as
     * an error. Not to be called from a listener.
     */
    public void close(Duration wait) {
        closed = true;
        long start = System.nanoTime();
        events.execute(() -> {
            closeCache(nodeCache);
            awaitCreates(start + wait.toNanos() / 2);
            client.close();
        });
        events.shutdown();
        try {
            if (!events.awaitTermination(wait.toNanos() - (System.nanoTime() - start), TimeUnit.NANOSECONDS)) {
                log.warn("the watcher of {} did not stop in time", path);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits, until {@code deadline} ({@link System#nanoTime()}) at most, for the creates of the node still running. */
    private void awaitCreates(long deadline) {
        try {
            CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new))
                    .get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.debug("closing the client while {} is still being created", path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a create is never completed exceptionally", e);
        }
    }

    private CuratorCache cache(Consumer<ChildData> changed, Runnable loaded) {
        CuratorCache cache = CuratorCache.builder(client, path)
                .withOptions(CuratorCache.Options.SINGLE_NODE_CACHE)
                .withExceptionHandler(e -> readFailure.set(path + ": " + e))
                .build();
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> changed.accept(after))
                .forDeletes(before -> changed.accept(null))
                .forInitialized(loaded)
                .build(), events);
        cache.start();
        return cache;
    }

    private void connectionChanged(ConnectionState state) {
        if (closed) {
            return;
        }
        if (state.isConnected()) {
            connected = true;
            if (state == ConnectionState.RECONNECTED) {
                log.info("connection to ZooKeeper at {} is back", connection.connectString());
            }
            createNode();
            updateValidity();
            if (state == ConnectionState.RECONNECTED || readFailure.get() != null) {
                readNodeAgain();
            }
        } else {
            connected = false;
            log.warn("connection to ZooKeeper at {} is {}; keeping the config last read from {}",
                    connection.connectString(), state, path);
            setValid(false, CONNECTION_INTERRUPTED);
        }
    }

    private void createNode() {
        creates.removeIf(CompletableFuture::isDone);
        CompletableFuture<Void> created = new CompletableFuture<>();
        creates.add(created);
        try {
            client.create().creatingParentsIfNeeded().inBackground((curator, event) -> {
                try {
                    nodeCreated(event);
                } finally {
                    created.complete(null);
                }
            }).forPath(path, new byte[0]);
        } catch (Exception e) {
            created.complete(null);
            log.warn("cannot create {}: {}", path, e.toString());
        }
    }

    private void nodeCreated(CuratorEvent event) {
        int code = event.getResultCode();
        if (code == KeeperException.Code.OK.intValue() || code == KeeperException.Code.NODEEXISTS.intValue()) {
            return;
        }
        if (closed) {
            // a create the close did not wait for any longer, ended by the client's close
            log.debug("{} not created before the watcher closed: {}", path, KeeperException.Code.get(code));
        } else {
            log.warn("cannot create {}: {}", path, KeeperException.Code.get(code));
        }
    }

    /**
     * The node's cache has read it, or failed to: a failure while connected makes the watcher invalid and is tried again
     * later; one while the connection is away is tried again when it is back.
     */
    private void nodeLoaded() {
        String failure = readFailure.getAndSet(null);
        if (failure == null) {
            failureTold = null;
            if (nodeCache.get(path).isEmpty()) {
                deliver(""); // deleted while the connection was away, which the cache made anew does not tell
            }
            updateValidity();
            firstRead.complete(null);
            return;
        }
        if (!failure.equals(failureTold)) {
            failureTold = failure;
            log.warn("reading {} from ZooKeeper failed; read again every {} s and when the connection is back: {}",
                    path, READ_RETRY_SECONDS, failure);
        }
        if (connected) {
            setValid(false, "cannot read " + failure);
            CompletableFuture.delayedExecutor(READ_RETRY_SECONDS, TimeUnit.SECONDS, events).execute(this::readNodeAgain);
        } else {
            readFailure.compareAndSet(null, failure); // for the reconnection to read it again
        }
    }

    /** Reads the node again with a cache made anew, which delivers its text when it differs from the last delivered. */
    private void readNodeAgain() {
        if (closed) {
            return;
        }
        readFailure.set(null);
        closeCache(nodeCache);
        nodeCache = nodeCache();
    }

    /** A cache of the watched node, whose events count only while it is the node's cache: one made anew replaces it. */
    private CuratorCache nodeCache() {
        AtomicReference<CuratorCache> self = new AtomicReference<>();
        CuratorCache cache = cache(data -> {
            if (self.get() == nodeCache) {
                deliver(text(data));
            }
        }, () -> {
            if (self.get() == nodeCache) {
                nodeLoaded();
            }
        });
        self.set(cache);
        return cache;
    }

    private void deliver(String text) {
        if (closed || text.equals(delivered)) {
            return;
        }
        delivered = text;
        try {
            configs.configChanged(text);
        } catch (RuntimeException e) {
            log.error("the config listener of {} failed", path, e);
        }
    }

    private void updateValidity() {
        if (!connected) {
            setValid(false, CONNECTION_INTERRUPTED);
        } else {
            setValid(true, "connected");
        }
    }

    private void setValid(boolean now, String why) {
        if (closed || (now == valid && why.equals(reason))) {
            return;
        }
        valid = now;
        reason = why;
        try {
            validity.validityChanged(now, why);
        } catch (RuntimeException e) {
            log.error("the validity listener of {} failed", path, e);
        }
    }

    private static String text(ChildData data) {
        return data == null || data.getData() == null ? "" : new String(data.getData(), StandardCharsets.UTF_8);
    }

    private static void closeCache(CuratorCache cache) {
        if (cache != null) {
            cache.close();
        }
    }
}
