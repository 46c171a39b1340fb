package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.FreePorts;

/**
 * Runs standalone as its own JVM, as the launcher does, and stops it as a user does: with SIGTERM,
 * and with Ctrl-C in a terminal, which signals the whole foreground process group. Either way the
 * services stop before the Redis they use (no outage is logged) and nothing is left running.
 */
class StandaloneProcessTest {

    private static final Pattern REDIS = Pattern.compile("redis 127\\.0\\.0\\.1:(\\d+)");
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    @Test
    void sigtermStopsEverythingItStarted() throws Exception {
        stopsCleanly(List.of(), process -> kill("TERM", Long.toString(process.pid())));
    }

    /**
     * A shell starts a foreground job with SIGINT at its default action; a JVM that inherits SIGINT ignored
     * (as a job started in the background by a script does) keeps ignoring it, so the test resets it first.
     */
    @Test
    void ctrlCInATerminalStopsTheServicesBeforeRedis() throws Exception {
        assumeTrue(Files.isExecutable(SETSID), "needs setsid to give the JVM a process group of its own");
        assumeTrue(resetsSigint(), "needs env --default-signal to start the JVM with SIGINT at its default action");
        stopsCleanly(List.of(SETSID.toString(), "env", "--default-signal=INT"), process -> kill("INT", "-" + process.pid()));
    }

    /**
     * A training run stopped half-way (the launcher passes Ctrl-C and SIGTERM on to it) stops its cluster and removes the
     * cluster's temporary data, which by then holds the broker's log of every page crawled.
     */
    @Test
    void sigtermStopsATrainingRunAndRemovesItsData(@TempDir Path tmp) throws Exception {
        Process process = new ProcessBuilder(java(), "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp,
                "-cp", System.getProperty("java.class.path"), ScrapyCluster.class.getName(), "train")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("train.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (crawledBytes(tmp) == 0) {
                assertTrue(process.isAlive(), "training runs: " + Files.readString(tmp.resolve("train.log")));
                assertTrue(System.nanoTime() < deadline, "pages crawled within 2 minutes");
                Thread.sleep(200);
            }
            List<ProcessHandle> children = process.descendants().toList();
            assertFalse(children.isEmpty(), "redis-server runs as a child");

            kill("TERM", Long.toString(process.pid()));
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "training stops");
            for (ProcessHandle child : children) {
                child.onExit().get(30, TimeUnit.SECONDS);
            }
            try (Stream<Path> left = Files.list(tmp)) {
                assertEquals(List.of(), left.filter(path -> path.getFileName().toString().startsWith("scrapy-cluster-")).toList(),
                        "the cluster's data is removed: " + Files.readString(tmp.resolve("train.log")));
            }
            assertTrue(Files.readString(tmp.resolve("train.log")).contains("Training stopped"));
        } finally {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Bytes of crawled pages in the log of the training's broker, under {@code tmp}. */
    private static long crawledBytes(Path tmp) throws IOException {
        try (Stream<Path> files = Files.walk(tmp)) {
            return files.filter(path -> path.toString().contains("demo.crawled_firehose") && path.toString().endsWith(".log"))
                    .mapToLong(path -> path.toFile().length()).sum();
        } catch (UncheckedIOException raced) {
            return 0;   // a file removed as it was listed
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static boolean resetsSigint() throws IOException, InterruptedException {
        Process probe = new ProcessBuilder("env", "--default-signal=INT", "true").redirectErrorStream(true).start();
        probe.getInputStream().transferTo(OutputStream.nullOutputStream());
        return probe.waitFor() == 0;
    }

    private static void stopsCleanly(List<String> prefix, Consumer<Process> stop) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(java(), "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp", System.getProperty("java.class.path"), ScrapyCluster.class.getName(), "standalone",
                "--log-level", "WARNING", "--set", "STANDALONE_KAFKA_PORT=0", "--set", "STANDALONE_ZOOKEEPER_PORT=0",
                "--set", "STANDALONE_REDIS_PORT=0", "--set", "METRICS_PORT=-1", "--set", "FLASK_PORT=0", "--set", "PUBLIC_IP=127.0.0.1"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            int redisPort = -1;
            BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                Matcher ready = REDIS.matcher(line);
                if (line.startsWith("Scrapy Cluster ready: ") && ready.find()) {
                    redisPort = Integer.parseInt(ready.group(1));
                    break;
                }
            }
            assertTrue(redisPort > 0, "the ready line names the Redis port");
            assertTrue(FreePorts.inUse(redisPort));
            List<ProcessHandle> children = process.descendants().toList();
            assertFalse(children.isEmpty(), "redis-server runs as a child");

            stop.accept(process);
            List<String> afterStop = new ArrayList<>();
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                afterStop.add(line);
            }
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "standalone stops");
            for (ProcessHandle child : children) {
                child.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(child.isAlive(), "no orphaned " + child.info().command().orElse("child"));
            }
            assertFalse(FreePorts.inUse(redisPort));
            assertEquals(List.of(), afterStop.stream().filter(line -> line.contains("Redis unavailable")
                    || line.contains("Cannot reconnect")).toList(), "Redis went away before the services stopped");
        } finally {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Sends {@code signal} to {@code target}: a pid, or a negated pid for the process group it leads,
     * as a terminal signals its foreground group on Ctrl-C. ({@link Process#destroy()} would close
     * the output this test still reads.)
     */
    private static void kill(String signal, String target) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", target).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -" + signal + " -- " + target);
        } catch (IOException e) {
            throw new AssertionError("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
