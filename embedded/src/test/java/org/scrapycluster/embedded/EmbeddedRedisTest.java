package org.scrapycluster.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

/** The embedded redis-server lives no longer than its JVM, however the JVM ends. */
class EmbeddedRedisTest {

    @Test
    void stopsWithItsJvmEvenWhenTheJvmIsKilled(@TempDir Path data) throws Exception {
        Process jvm = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RedisHolder.class.getName(), data.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int port;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.US_ASCII))) {
            port = Integer.parseInt(out.readLine().strip());
            assertTrue(answers(port), "started");
            jvm.destroyForcibly().waitFor();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> !answers(port));
    }

    @Test
    void closeStopsTheServer() {
        EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("embedded-redis-test"));
        int port = redis.port();
        assertTrue(answers(port));
        redis.stop();
        assertFalse(answers(port), "stopped");
        redis.restart();
        assertTrue(answers(port), "restarted on the same port");
        redis.close();
        assertFalse(answers(port), "closed");
    }

    @Test
    void aServerThatEndsByItselfIsStartedAgainAndOneStoppedOnPurposeIsNot() throws Exception {
        try (CapturedLog log = CapturedLog.start(EmbeddedRedis.class, Level.INFO);
             EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("embedded-redis-test"))) {
            int port = redis.port();
            assertEquals(List.of("OK"), command(port, "SET", "queue", "request"));
            new ProcessBuilder("kill", "-KILL", processId(port)).start().waitFor();

            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> log.lines().size() == 2);
            assertTrue(answers(port), "started again on its port");
            assertEquals(List.of("0"), command(port, "EXISTS", "queue"), "empty: its directory is temporary");
            List<String> lines = log.lines();
            assertTrue(lines.get(0).startsWith("ERROR redis-server on 127.0.0.1:" + port + " ended by itself, killed by "
                    + "signal 9 (SIGKILL: kill -9, or the kernel's out-of-memory killer); starting it again, empty: "), lines.get(0));
            assertEquals("WARN redis-server is back on 127.0.0.1:" + port, lines.get(1));

            redis.stop();
            Thread.sleep(500); // a start takes about 50 ms here
            assertFalse(answers(port), "stopped on purpose, not started again");
            assertEquals(2, log.lines().size(), log.lines().toString());
        }
    }

    @Test
    void aServerThatCannotStartAgainAtOnceIsTriedAgainUntilItDoes(@TempDir Path data) throws Exception {
        try (CapturedLog log = CapturedLog.start(EmbeddedRedis.class, Level.INFO);
             EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.kept(data))) {
            int port = redis.port();
            assertEquals(List.of("OK"), command(port, "SET", "queue", "request"));
            Path manifest;
            try (Stream<Path> files = Files.list(data.resolve("appendonlydir"))) {
                manifest = files.filter(file -> file.toString().endsWith(".manifest")).findFirst().orElseThrow();
            }
            String kept = Files.readString(manifest);
            Files.writeString(manifest, "not a manifest\n"); // read only at a start: the next one fails
            new ProcessBuilder("kill", "-KILL", processId(port)).start().waitFor();

            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> log.lines().stream().anyMatch(line -> line.contains("did not start again")));
            String refused = log.lines().stream().filter(line -> line.contains("did not start again")).findFirst().orElseThrow();
            assertTrue(refused.contains("manifest"), "what it said as it ended: " + refused);
            Files.writeString(manifest, kept);

            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> answers(port));
            assertEquals(List.of("request"), command(port, "GET", "queue"), "back from its append-only file");
        }
    }

    @Test
    void anEndIsToldBySignalOrStatus() {
        assertEquals("killed by signal 15 (SIGTERM)", EmbeddedRedis.howItEnded(143));
        assertEquals("killed by signal 1", EmbeddedRedis.howItEnded(129));
        assertEquals("with status 1", EmbeddedRedis.howItEnded(1));
        assertEquals("with status 0 (a SHUTDOWN command ends it so)", EmbeddedRedis.howItEnded(0));
    }

    @Test
    void aKeptDirectoryKeepsTheDataAcrossAStopAndAStart(@TempDir Path data) throws IOException {
        EmbeddedRedis first = EmbeddedRedis.start(0, DataDirectory.kept(data));
        try {
            assertEquals("yes", command(first.port(), "CONFIG", "GET", "appendonly").get(1));
            assertEquals(List.of("OK"), command(first.port(), "SET", "queue", "request"));
        } finally {
            first.close();
        }
        EmbeddedRedis second = EmbeddedRedis.start(0, DataDirectory.kept(data));
        try {
            assertEquals(List.of("request"), command(second.port(), "GET", "queue"), "the key is back");
        } finally {
            second.close();
        }
    }

    @Test
    void aTemporaryDirectoryGetsNoAppendOnlyFile() throws IOException {
        DataDirectory data = DataDirectory.temporary("embedded-redis-test");
        EmbeddedRedis redis = EmbeddedRedis.start(0, data);
        try {
            assertEquals(List.of("OK"), command(redis.port(), "SET", "queue", "request"));
            assertEquals(List.of("appendonly", "no"), command(redis.port(), "CONFIG", "GET", "appendonly"));
            try (Stream<Path> files = Files.list(data.path())) {
                assertTrue(files.noneMatch(file -> file.getFileName().toString().startsWith("append")), "no append-only file");
            }
        } finally {
            redis.close();
        }
    }

    /** Sends one command and returns its reply: a status, a bulk string or an array of them. */
    private static List<String> command(int port, String... words) throws IOException {
        StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
        for (String word : words) {
            request.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String line = in.readLine();
            boolean array = line.startsWith("*");
            int count = array ? Integer.parseInt(line.substring(1)) : 1;
            List<String> reply = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (array) {
                    line = in.readLine();
                }
                reply.add(line.startsWith("$") ? in.readLine() : line.substring(1));
            }
            return reply;
        }
    }

    /** The server's process id, from the {@code process_id} line of {@code INFO server}. */
    private static String processId(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n".getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("process_id:")) {
                    return line.substring("process_id:".length());
                }
            }
            throw new IOException("no process_id in INFO server");
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = socket.getInputStream().readNBytes(5);
            return "+PONG".equals(new String(reply, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A JVM that starts a server with its data in the folder of its argument (kept: the killed JVM could not remove
     * it, the test's own temporary folder does), prints its port and waits to be killed.
     */
    public static final class RedisHolder {

        public static void main(String[] args) throws InterruptedException {
            EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.kept(Path.of(args[0])));
            System.out.println(redis.port());
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(5));
        }
    }
}
