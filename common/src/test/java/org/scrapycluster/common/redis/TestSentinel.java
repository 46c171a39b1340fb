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
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.FreePorts;

/**
 * One real {@code redis-sentinel} (Debian's package) on 127.0.0.1 monitoring a master, with a password of its own
 * ({@code requirepass}, which Sentinel reads since Redis 6.2) or none. Stopped on close, or with the JVM.
 */
final class TestSentinel implements AutoCloseable {

    static final String MASTER_NAME = "scmaster";
    private static final Duration START = Duration.ofSeconds(30);

    private final DataDirectory dir = DataDirectory.temporary("test-sentinel");
    private final int port = FreePorts.pick();
    private final Thread hook = new Thread(this::stop, "test-sentinel-shutdown");
    private Process process;

    private TestSentinel() {
    }

    /**
     * Starts a Sentinel that monitors the master at 127.0.0.1:{@code masterPort} as {@link #MASTER_NAME}, asks its
     * clients for {@code requirepass} (null for none) and gives the master {@code masterPassword} (null for none).
     */
    static TestSentinel start(int masterPort, String requirepass, String masterPassword) {
        TestSentinel sentinel = new TestSentinel();
        try {
            sentinel.run(masterPort, requirepass, masterPassword);
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

    private void run(int masterPort, String requirepass, String masterPassword) {
        List<String> lines = new ArrayList<>(List.of(
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir.path(),
                "logfile " + dir.path().resolve("sentinel.log"),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 1"));
        if (masterPassword != null) {
            lines.add("sentinel auth-pass " + MASTER_NAME + " " + masterPassword);
        }
        if (requirepass != null) {
            lines.add("requirepass " + requirepass);
        }
        Path config = dir.path().resolve("sentinel.conf");
        try {
            Files.writeString(config, String.join("\n", lines) + "\n");
            process = new ProcessBuilder("redis-sentinel", config.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run redis-sentinel (install the redis-sentinel package)", e);
        }
        Runtime.getRuntime().addShutdownHook(hook);
        Awaitility.await().atMost(START).ignoreExceptionsInstanceOf(IOException.class).until(this::listens);
    }

    private boolean listens() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("redis-sentinel exited with " + process.exitValue() + "; see " + dir.path());
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        }
    }

    private void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException notAdded) {
            // the JVM is stopping, or the Sentinel never started
        }
        dir.release();
    }
}
