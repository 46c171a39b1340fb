package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;

import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A single ZooKeeper server in this JVM on 127.0.0.1, built from ZooKeeper's own classes (no
 * admin web server, no config file written anywhere). It can be stopped and started again on
 * the same port, so a test can watch a client ride out an outage.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    private static final int TICK_MILLIS = 500;
    private static final int MAX_CLIENT_CONNECTIONS = 1000;

    private final int port;
    private final DataDirectory dataDir;
    private ZooKeeperServer server;
    private ServerCnxnFactory connections;

    private EmbeddedZooKeeper(int port, DataDirectory dataDir) {
        this.port = port;
        this.dataDir = dataDir;
    }

    /** Starts a server on {@code port} (0 picks a free one). */
    public static EmbeddedZooKeeper start(int port, DataDirectory dataDir) {
        for (int attempt = 1; ; attempt++) {
            EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper(port == 0 ? FreePorts.pick() : port, dataDir);
            try {
                zookeeper.startServer();
                return zookeeper;
            } catch (UncheckedIOException e) {
                if (port != 0 || attempt == 3 || !(e.getCause() instanceof BindException)) {
                    throw e;
                }
            }
        }
    }

    /** {@code 127.0.0.1:<port>}, the form of the {@code ZOOKEEPER_HOSTS} setting. */
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** Stops serving; the data is kept for {@link #restart()}. */
    public synchronized void stop() {
        if (connections != null) {
            connections.shutdown();
            connections = null;
        }
        if (server != null) {
            server.shutdown(true);
            server = null;
        }
    }

    /** Serves again on the same port with the same data. */
    public synchronized void restart() {
        if (server == null) {
            startServer();
        }
    }

    @Override
    public void close() {
        stop();
        dataDir.release();
    }

    private synchronized void startServer() {
        try {
            ZooKeeperServer zk = new ZooKeeperServer(dataDir.child("snapshots").path().toFile(),
                    dataDir.child("log").path().toFile(), TICK_MILLIS);
            ServerCnxnFactory factory = ServerCnxnFactory.createFactory(
                    new InetSocketAddress("127.0.0.1", port), MAX_CLIENT_CONNECTIONS);
            factory.startup(zk);
            server = zk;
            connections = factory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ZooKeeper on 127.0.0.1:" + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ZooKeeper", e);
        }
    }
}
