package org.scrapycluster.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real {@code redis-server} run as a child process on 127.0.0.1: the one on {@code PATH} when
 * there is one, else the binary shipped in {@code org.signal:embedded-redis}. In a temporary data
 * directory it persists nothing; in a kept one it writes an append-only file there (fsync every
 * second), so that a stop and a start on the same directory find the queues the Kafka monitor
 * filed, whose offsets it has committed. A shutdown hook stops it with the JVM: at once, or after
 * giving its owner a grace period to close it, so that the services using it stop before it does.
 * Where {@code setsid} exists it runs in a session of its own, so that Ctrl-C in a terminal
 * reaches only the JVM, which stops it in its turn, and not Redis under the services' feet.
 * A JVM that is killed runs no shutdown hook, so the server also holds a lifeline: a small shell
 * runs it and stops it when the JVM's end of the shell's standard input closes, which the kernel
 * does however the JVM ends. Without it, a {@code kill -9} left the server running and holding
 * its port, and the next {@code standalone} refused to start.
 * <p>
 * A server that ends by itself (killed by the kernel's out-of-memory killer, a {@code SHUTDOWN} from a client, a
 * crash) is logged at ERROR with how it ended and started again on its port, from its append-only file in a kept
 * directory and empty in a temporary one; a start that fails is tried again, ever less often, until it succeeds or
 * the server is closed. Without that, the services that use it waited for a Redis that never came back.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final String BUNDLED_VERSION = "7.0.15";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path SHELL = Path.of("/bin/sh");
    private static final Duration FIRST_RESTART_WAIT = Duration.ofSeconds(1);
    private static final Duration LONGEST_RESTART_WAIT = Duration.ofSeconds(30);
    /**
     * Runs its arguments (redis-server and its options) and stops them with SIGTERM when its standard
     * input reaches its end or it gets SIGTERM itself; exits with their status. An asynchronous command
     * of a shell reads {@code /dev/null} unless told otherwise, hence the copy of standard input on fd 3.
     */
    private static final String LIFELINE = """
            exec 3<&0
            "$@" 3<&- &
            server=$!
            ( cat <&3 > /dev/null; kill -TERM "$server" 2> /dev/null ) &
            lifeline=$!
            exec 3<&-
            trap 'kill -TERM "$server" 2> /dev/null' TERM INT HUP
            wait "$server"
            status=$?
            while kill -0 "$server" 2> /dev/null; do
              wait "$server"
              status=$?
            done
            kill "$lifeline" 2> /dev/null
            exit "$status"
            """;

    private final int port;
    private final DataDirectory dataDir;
    private final Path executable;
    private final Duration shutdownGrace;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread shutdownHook = new Thread(this::stopWithJvm, "embedded-redis-shutdown");
    /** The running server, or null while it is stopped on purpose or being started again after its end. */
    private Process process;
    /** Whether it is closing, or stopping with the JVM: a server that ends now is not started again. */
    private volatile boolean closing;
    /** Whether it is {@link #stop() stopped} on purpose until {@link #restart()}: it is not started again meanwhile. */
    private boolean stopped;
    /** Whether the server is {@link #freeze() frozen}: it must go on before it can stop. */
    private boolean frozen;

    private EmbeddedRedis(int port, DataDirectory dataDir, Path executable, Duration shutdownGrace) {
        this.port = port;
        this.dataDir = dataDir;
        this.executable = executable;
        this.shutdownGrace = shutdownGrace;
    }

    /** Starts a server on {@code port} (0 picks a free one) that keeps its files in {@code dataDir}, stopped at once with the JVM. */
    public static EmbeddedRedis start(int port, DataDirectory dataDir) {
        return start(port, dataDir, Duration.ZERO);
    }

    /**
     * Starts a server on {@code port} (0 picks a free one) that keeps its files in {@code dataDir};
     * when the JVM is told to stop, it is stopped once closed, or after {@code shutdownGrace}.
     */
    public static EmbeddedRedis start(int port, DataDirectory dataDir, Duration shutdownGrace) {
        Path executable = findExecutable(dataDir);
        for (int attempt = 1; ; attempt++) {
            int chosen = port == 0 ? FreePorts.pick() : port;
            EmbeddedRedis redis = new EmbeddedRedis(chosen, dataDir, executable, shutdownGrace);
            try {
                redis.startProcess();
                Runtime.getRuntime().addShutdownHook(redis.shutdownHook);
                return redis;
            } catch (IllegalStateException e) {
                if (port != 0 || attempt == 3) {
                    throw e;
                }
                LOG.debug("redis-server could not bind port {}, trying another one", chosen);
            }
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** Stops the server, keeping its port, so that a test can see what happens while Redis is away. */
    public synchronized void stop() {
        stopped = true;
        stopProcess();
    }

    /**
     * Stops the server where it is (SIGSTOP) without closing anything: connections stay open and no command is
     * answered, as with a Redis that hangs or a network that drops its packets. {@link #thaw()} lets it go on.
     */
    public synchronized void freeze() {
        signal("STOP");
        frozen = true;
    }

    /** Lets a {@link #freeze() frozen} server go on (SIGCONT). */
    public synchronized void thaw() {
        signal("CONT");
        frozen = false;
    }

    private void signal(String name) {
        try {
            // the process's own executable: /usr/bin/redis-server is often a link to redis-check-rdb
            String server = executable.toRealPath().toString();
            long pid = process.toHandle().descendants().filter(p -> p.info().command().map(server::equals).orElse(false))
                    .findFirst().orElse(process.toHandle()).pid();
            int status = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor();
            if (status != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " exited with " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal redis-server", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling redis-server", e);
        }
    }

    /** Starts the server again on the same port after {@link #stop()}. */
    public synchronized void restart() {
        stopped = false;
        if (process == null || !process.isAlive()) {
            startProcess();
        }
    }

    @Override
    public void close() {
        closing = true;
        stopProcess();
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
        dataDir.release();
    }

    private void stopWithJvm() {
        closing = true;
        try {
            closed.await(shutdownGrace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopProcess();
    }

    private synchronized void startProcess() {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        if (Files.isExecutable(SHELL)) {
            command.addAll(List.of(SHELL.toString(), "-c", LIFELINE, "embedded-redis"));
        }
        command.addAll(List.of(executable.toString(),
                "--port", Integer.toString(port),
                "--bind", "127.0.0.1",
                "--dir", dataDir.path().toString(),
                "--save", ""));
        if (dataDir.temporary()) {
            command.addAll(List.of("--appendonly", "no"));
        } else {
            // SIGTERM makes Redis sync the file before it exits; a kill -9 or a crash loses at most about a second
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "everysec"));
        }
        command.addAll(List.of(
                "--daemonize", "no",
                "--protected-mode", "yes",
                "--loglevel", "warning",
                "--logfile", dataDir.path().resolve("redis.log").toString()));
        long logBefore = log().toFile().length();
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dataDir.path().resolve("redis.out").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + executable, e);
        }
        try {
            awaitAnswer(logBefore);
        } catch (RuntimeException e) {
            stopProcess(); // ended or not, it is not this server's process: a start after this one must not take it for one
            throw e;
        }
        Process started = process;
        started.onExit().thenAcceptAsync(this::startAgainAfterItsEnd,
                task -> Thread.ofPlatform().daemon().name("embedded-redis-restart").start(task));
    }

    /**
     * Waits until the process just started answers PING; the time it spends reading a kept append-only file does not
     * count.
     *
     * @throws IllegalStateException when it ends first, saying what it wrote since {@code logBefore}, the length of its
     *                               log before the start, or does not answer within {@link #START_TIMEOUT}
     */
    private void awaitAnswer(long logBefore) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + " while starting on port "
                        + port + ": " + saidSince(logBefore));
            }
            String reply = ping();
            if (reply.startsWith("+PONG")) {
                return;
            }
            if (reply.startsWith("-LOADING")) {
                deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            }
            sleep(20);
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port + " within " + START_TIMEOUT);
    }

    private Path log() {
        return dataDir.path().resolve("redis.log");
    }

    /**
     * The last lines the process wrote on its own output (what it says before it opens its log: a bad option, a log it
     * cannot open, a shell that cannot run it) and in its log since it had {@code logBefore} bytes.
     */
    private String saidSince(long logBefore) {
        List<String> lines = new ArrayList<>(lines(dataDir.path().resolve("redis.out"), 0));
        lines.addAll(lines(log(), logBefore));
        return lastOf(lines);
    }

    /** The last three of {@code lines}, on one line. */
    private static String lastOf(List<String> lines) {
        return lines.isEmpty() ? "(nothing written)" : String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }

    /** The non-blank lines of {@code file} from byte {@code from}; none when it cannot be read. */
    private static List<String> lines(Path file, long from) {
        try (var channel = Files.newByteChannel(file)) {
            channel.position(from);
            String text = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
            return text.lines().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Starts the server again after {@code ended} ended, unless that was {@link #stop()}, {@link #close()} or the
     * JVM's end: at once, then after waits that double up to {@link #LONGEST_RESTART_WAIT}.
     */
    private void startAgainAfterItsEnd(Process ended) {
        synchronized (this) {
            if (process != ended || closing) {
                return;
            }
            process = null;
        }
        LOG.error("redis-server on 127.0.0.1:{} ended by itself, {}; starting it again, {}. The end of its log: {}",
                port, howItEnded(ended.exitValue()), dataDir.temporary()
                        ? "empty: its directory is temporary, so the queues, crawls and statistics it held are gone"
                        : "from its append-only file, which holds all but about the last second of writes",
                lastOf(lines(log(), 0)));
        Duration wait = FIRST_RESTART_WAIT;
        while (!closing) {
            try {
                synchronized (this) {
                    if (process != null || closing || stopped) {
                        return;
                    }
                    startProcess();
                }
                LOG.warn("redis-server is back on 127.0.0.1:{}", port);
                return;
            } catch (RuntimeException e) {
                LOG.error("redis-server did not start again on 127.0.0.1:{} ({}); trying again in {}", port,
                        e.getMessage(), wait);
            }
            try {
                if (closed.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            wait = wait.multipliedBy(2).compareTo(LONGEST_RESTART_WAIT) < 0 ? wait.multipliedBy(2) : LONGEST_RESTART_WAIT;
        }
    }

    /** How a server with this exit status ended: a signal's number is the status less 128, as a shell reports it. */
    static String howItEnded(int status) {
        if (status <= 128) {
            return status == 0 ? "with status 0 (a SHUTDOWN command ends it so)" : "with status " + status;
        }
        int signal = status - 128;
        String name = switch (signal) {
            case 9 -> " (SIGKILL: kill -9, or the kernel's out-of-memory killer)";
            case 15 -> " (SIGTERM)";
            case 11 -> " (SIGSEGV: it crashed)";
            case 6 -> " (SIGABRT: it crashed)";
            default -> "";
        };
        return "killed by signal " + signal + name;
    }

    private synchronized void stopProcess() {
        if (process == null) {
            return;
        }
        if (frozen) {
            thaw();
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the lifeline is gone already; the signal below stops the server
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** The first line of the server's reply to PING, or "" when it does not answer. */
    private String ping() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            StringBuilder reply = new StringBuilder();
            InputStream in = socket.getInputStream();
            for (int b = in.read(); b != -1 && b != '\n' && reply.length() < 200; b = in.read()) {
                reply.append((char) b);
            }
            return reply.toString();
        } catch (IOException e) {
            return "";
        }
    }

    private static Path findExecutable(DataDirectory dataDir) {
        return onPath().orElseGet(() -> extractBundled(dataDir));
    }

    private static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Path extractBundled(DataDirectory dataDir) {
        String resource = "redis-server-" + BUNDLED_VERSION + "-" + platform();
        Path target = dataDir.path().resolve(resource);
        try (InputStream in = EmbeddedRedis.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on PATH and no bundled binary for " + platform()
                        + "; install redis-server (for example 'apt-get install redis-server')");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
            LOG.info("No redis-server on PATH; using the bundled Redis {}", BUNDLED_VERSION);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the bundled redis-server to " + target, e);
        }
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osName = os.contains("mac") ? "darwin" : "linux";
        String archName = switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
        return osName + "-" + archName;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }
}
