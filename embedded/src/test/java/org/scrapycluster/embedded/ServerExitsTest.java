package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.Exit;
import org.apache.zookeeper.util.ServiceUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/**
 * A server that gives up for good ends the process with status 70 and a line that says which and where, instead of its
 * own exit: each case in a JVM of its own, which ends as the server's exit would end the standalone's.
 */
class ServerExitsTest {

    @TempDir
    Path folder;

    @ParameterizedTest
    @CsvSource({"kafka, Kafka broker, kafka", "zookeeper, ZooKeeper, zookeeper"})
    void aServerThatGivesUpEndsTheProcessSayingWhichAndWhere(String server, String named, String subfolder) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ServerExitsTest.class.getName(), server, folder.toString())
                .redirectErrorStream(true).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "ended");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(ServerExits.STATUS, child.exitValue(), output);
        assertTrue(output.contains("The embedded " + named + " stopped for good")
                && output.contains("Its data is in " + folder.resolve(subfolder) + ", on a disk with "), output);
    }

    /**
     * A stop is not blamed on the disk unless the disk is nearly full: a broker out of file descriptors, or out of heap
     * as it starts, was told to make room on a disk with 74 GB free.
     */
    @Test
    void theAdviceNamesWhatTheProcessRanShortOf() {
        ServerExits.Descriptors few = new ServerExits.Descriptors(200, 1024);
        assertTrue(ServerExits.advice(0, few, 4096).startsWith("Make room on that disk"));
        assertTrue(ServerExits.advice(127, few, 4096).startsWith("Make room on that disk"));

        assertEquals("The process has 380 of its 384 file descriptors open: raise its limit (ulimit -n, or the container's nofile)"
                + " or lower CONCURRENT_REQUESTS, and start it again on the same folder",
                ServerExits.advice(74_000, new ServerExits.Descriptors(380, 384), 4096));

        String neither = ServerExits.advice(74_000, few, 64);
        assertTrue(neither.startsWith("The server's own error, logged before this line, says why") && neither.contains("a heap of 64 MiB"),
                neither);
        assertEquals(neither, ServerExits.advice(-1, new ServerExits.Descriptors(-1, -1), 64), "nothing known is nothing blamed");
    }

    /**
     * Counting the open descriptors opens {@code /proc/self/fd}, which fails when none is left: that failure ended the
     * stop's line before it was said, and the process went on without its broker.
     */
    @Test
    void descriptorsThatCannotBeCountedForLackOfOneAreAllOpen() {
        ServerExits.Descriptors none = ServerExits.Descriptors.read(() -> {
            throw new InternalError("errno: 24 error: Unable to open directory /proc/self/fd");
        }, 384);
        assertEquals(new ServerExits.Descriptors(384, 384), none);
        assertTrue(none.nearlyAllOpen());

        ServerExits.Descriptors unknown = ServerExits.Descriptors.read(() -> {
            throw new InternalError("errno: 13 error: Unable to open directory /proc/self/fd");
        }, 384);
        assertTrue(!unknown.nearlyAllOpen(), "another failure says nothing of them");
        assertEquals(new ServerExits.Descriptors(200, 384), ServerExits.Descriptors.read(() -> 200, 384));
    }

    /** A heap too small for the servers and the services is said before they start, and the way to give it more. */
    @Test
    void aHeapUnderTheLeastAStandaloneNeedsIsSaid() {
        assertEquals("The JVM's heap is at most 64 MiB, less than the 96 MiB the embedded servers and the services need together:"
                + " it would run out of memory. Give it more (JAVA_OPTS=-Xmx256m)", EmbeddedStack.heapWarning(64L << 20).orElseThrow());
        assertTrue(EmbeddedStack.heapWarning(96L << 20).isEmpty());
    }

    /** A broker that may keep more than the disk holds would stop the process in the middle of a long crawl. */
    @Test
    void aStackWhoseBrokerMayKeepMoreThanTheDiskHoldsSaysSoAtStart() {
        long petabyte = 1L << 50;
        List<String> warnings;
        try (CapturedLog log = CapturedLog.start(EmbeddedStack.class, Level.WARN);
                EmbeddedStack stack = EmbeddedStack.start(new EmbeddedStack.Options(0, null, null, 1, petabyte, folder, Duration.ZERO))) {
            warnings = log.lines();
        }
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().startsWith("WARN The data folder " + folder + " has ")
                && warnings.getFirst().contains(" MiB of room, less than the " + (petabyte / (1 << 20) + 128) + " MiB"),
                warnings.getFirst());
    }

    /** Installs the exits as a stack does for {@code args[1]}, then gives up as the server {@code args[0]} would. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[1]);
        ServerExits.install(root.resolve("kafka"), root.resolve("zookeeper"));
        if (List.of(args).contains("kafka")) {
            Exit.halt(1, "Shutdown broker because all log dirs in " + root.resolve("kafka") + " have failed");
        } else {
            ServiceUtils.requestSystemExit(10);
        }
        System.exit(3); // neither ended the process
    }
}
