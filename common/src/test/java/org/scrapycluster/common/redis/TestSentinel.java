package org.scrapycluster.common.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.scrapycluster.embedded.ChildProcesses;
import org.scrapycluster.embedded.FreePorts;

/**
 * One real {@code redis-sentinel} (Debian's package) on 127.0.0.1 monitoring a master, with a password of its own
 * ({@code requirepass}, which Sentinel reads since Redis 6.2), a user of its own, or none. Stopped on close, or with the JVM.
 */
final class TestSentinel implements AutoCloseable {

    static final String MASTER_NAME = "scmaster";
    private static final Duration START = Duration.ofSeconds(30);

    private final ChildProcesses processes = new ChildProcesses("test-sentinel");
    private final int port = FreePorts.pick();
    private Process process;

    private TestSentinel() {
    }

    /**
     * Starts a Sentinel that monitors the master at 127.0.0.1:{@code masterPort} as {@link #MASTER_NAME}, asks its
     * clients for {@code requirepass} (null for none) and gives the master {@code masterPassword} (null for none).
     */
    static TestSentinel start(int masterPort, String requirepass, String masterPassword) {
        return start(masterPort, requirepass, masterPassword, List.of());
    }

    /**
     * Starts a Sentinel speaking TLS only, with the certificate and key {@code cert} and {@code key} and trusting the CA
     * of {@code ca}, that monitors the master at 127.0.0.1:{@code masterTlsPort}, a TLS port, over TLS.
     */
    static TestSentinel startOverTls(int masterTlsPort, String cert, String key, String ca) {
        return start(masterTlsPort, null, null, List.of("tls-cert-file " + cert, "tls-key-file " + key, "tls-ca-cert-file " + ca,
                "tls-auth-clients no", "tls-replication yes"));
    }

    /**
     * Starts a Sentinel whose default user is off and whose one user is {@code user} with {@code password} (Sentinel's ACL,
     * since Redis 6.2), monitoring the master at 127.0.0.1:{@code masterPort}, which asks for {@code masterPassword}.
     */
    static TestSentinel startWithUser(int masterPort, String user, String password, String masterPassword) {
        return start(masterPort, null, masterPassword, List.of("user default off", "user " + user + " on >" + password
                + " allchannels +@all"));
    }

    /** {@code more}: lines of the Sentinel's configuration besides the monitor's, a TLS port's instead of a plain one. */
    private static TestSentinel start(int masterPort, String requirepass, String masterPassword, List<String> more) {
        TestSentinel sentinel = new TestSentinel();
        try {
            sentinel.run(masterPort, requirepass, masterPassword, more);
            return sentinel;
        } catch (RuntimeException e) {
            sentinel.close();
            throw e;
        }
    }

    /** Its address, as {@code REDIS_SENTINELS} names it. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** Runs it, on a TLS port only when {@code more} has TLS settings. */
    private void run(int masterPort, String requirepass, String masterPassword, List<String> more) {
        Path dir = processes.dir();
        List<String> lines = new ArrayList<>(more);
        boolean tls = more.stream().anyMatch(line -> line.startsWith("tls-"));
        lines.addAll(tls ? List.of("port 0", "tls-port " + port) : List.of("port " + port));
        lines.addAll(List.of(
                "bind 127.0.0.1",
                "dir " + dir,
                "logfile " + dir.resolve("sentinel.log"),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 1"));
        if (masterPassword != null) {
            lines.add("sentinel auth-pass " + MASTER_NAME + " " + masterPassword);
        }
        if (requirepass != null) {
            lines.add("requirepass " + requirepass);
        }
        Path config = dir.resolve("sentinel.conf");
        try {
            Files.writeString(config, String.join("\n", lines) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        process = processes.start(List.of("redis-sentinel", config.toString()));
        Awaitility.await().atMost(START).ignoreExceptionsInstanceOf(IOException.class).until(this::listens);
    }

    private boolean listens() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("redis-sentinel exited with " + process.exitValue() + "; see " + processes.dir());
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        }
    }

    /** Stops the Sentinel with SIGSTOP: it takes connections and commands and answers none. */
    void pause() {
        ChildProcesses.pause(process);
    }

    /** Lets a paused Sentinel go on. */
    void resume() {
        ChildProcesses.resume(process);
    }

    @Override
    public void close() {
        processes.close();
    }
}
