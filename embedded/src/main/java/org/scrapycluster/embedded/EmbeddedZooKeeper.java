package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.command.FourLetterCommands;
import org.apache.zookeeper.server.persistence.FileSnap;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * A single ZooKeeper server in this JVM on 127.0.0.1, built from ZooKeeper's own classes (no
 * admin web server, no config file written anywhere). It can be stopped and started again on
 * the same port, so a test can watch a client ride out an outage.
 *
 * <p>It answers the four-letter words the Python original's services send ({@code ruok},
 * {@code stat}, {@code srvr}, {@code envi}, {@code conf}; its crawler will not start without an
 * answer to {@code envi}), added to any whitelist the JVM was started with (docs/operations.md,
 * "Mixed Python and Java clusters").
 *
 * <p>It keeps its transaction log in {@code log/} and its snapshots in {@code snapshots/} of its data folder, and at
 * each start deletes all but the newest {@value #SNAPSHOTS_KEPT} snapshots and the log files they do not need, as
 * ZooKeeper's own purge does (docs/operations.md "The embedded ZooKeeper's files").
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    private static final int TICK_MILLIS = 500;
    private static final int MAX_CLIENT_CONNECTIONS = 1000;
    private static final String FOUR_LETTER_WHITELIST = "zookeeper.4lw.commands.whitelist";
    private static final Set<String> FOUR_LETTER_WORDS = Set.of("ruok", "stat", "srvr", "envi", "conf");
    /**
     * The space a transaction log file takes ahead of its writes: ZooKeeper's 64 MB, sparse, made each of the few log files
     * kept 64 MB apparent for a few kilobytes of nodes.
     */
    private static final long LOG_PREALLOCATED_BYTES = 1 << 20;
    /** The fewest snapshots ZooKeeper's own purge keeps. */
    private static final int SNAPSHOTS_KEPT = 3;
    /** The folder ZooKeeper's files of this format are in, below the log and snapshot folders. */
    private static final String FORMAT_FOLDER = FileTxnSnapLog.version + FileTxnSnapLog.VERSION;

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
        allowFourLetterWords();
        try {
            Path log = dataDir.child("log").path();
            Path snapshots = dataDir.child("snapshots").path();
            moveMisplaced(snapshots, log, FileTxnLog.LOG_FILE_PREFIX);
            moveMisplaced(log, snapshots, FileSnap.SNAPSHOT_FILE_PREFIX);
            FileTxnLog.setPreallocSize(LOG_PREALLOCATED_BYTES);
            FileTxnSnapLog files = new FileTxnSnapLog(log.toFile(), snapshots.toFile());
            OldZooKeeperFiles.delete(files, SNAPSHOTS_KEPT);
            ZooKeeperServer zk = new ZooKeeperServer(files, TICK_MILLIS, "");
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

    /**
     * Moves ZooKeeper's files named {@code prefix.*} from {@code from} to {@code to}. Builds before 2026-12-06 handed
     * ZooKeeper the two folders the other way round (its constructor names them snapshots then log, but takes the first
     * for the log), so {@code snapshots/} held the log and {@code log/} the snapshots; ZooKeeper refuses a log folder
     * with snapshots in it, and would start empty from the other. One file at a time: a start cut short midway is
     * finished by the next.
     */
    private static void moveMisplaced(Path from, Path to, String prefix) throws IOException {
        Path misplaced = from.resolve(FORMAT_FOLDER);
        if (!Files.isDirectory(misplaced)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(misplaced, prefix + ".*")) {
            for (Path file : files) {
                Path target = Files.createDirectories(to.resolve(FORMAT_FOLDER)).resolve(file.getFileName());
                Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }

    /** Adds {@link #FOUR_LETTER_WORDS} to the JVM's whitelist, which ZooKeeper reads before its first answer. */
    private static void allowFourLetterWords() {
        synchronized (EmbeddedZooKeeper.class) {
            String configured = System.getProperty(FOUR_LETTER_WHITELIST, "");
            Set<String> words = new LinkedHashSet<>();
            for (String word : configured.split(",")) {
                if (!word.isBlank()) {
                    words.add(word.trim());
                }
            }
            if (words.contains("*") || words.containsAll(FOUR_LETTER_WORDS)) {
                return;
            }
            words.addAll(FOUR_LETTER_WORDS);
            System.setProperty(FOUR_LETTER_WHITELIST, String.join(",", words));
            FourLetterCommands.resetWhiteList();
        }
    }
}
