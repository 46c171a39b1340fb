package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * The signal listener's wait is one every Redis it supports takes: a second's wait goes as a whole number of seconds
 * (Redis before 6.0 refuses {@code 1.0}), and a shorter one, on such a server, as a pop and a pause. What it sends is
 * read with {@code MONITOR}.
 */
class SignalWaitTest {

    private static final String BLPOP = "\"BLPOP\" \"" + Keyspace.JOBS_SIGNAL + "\"";

    private final RecordingPlugin plugin = new RecordingPlugin("info:*");
    private EmbeddedRedis server;
    private JobTestBed bed;
    private CommandLog commands;

    /** A Redis of its own, read with MONITOR, where a job is signalled. */
    @BeforeEach
    void signalAJob() throws IOException {
        server = EmbeddedRedis.start(0, DataDirectory.temporary("signal-wait"));
        bed = new JobTestBed(server.port(), "signalwait", 3);
        commands = new CommandLog(server);
        bed.redis.sync().set("info:app1", "uuid-1");
        bed.redis.sync().rpush(Keyspace.JOBS_SIGNAL, "info:app1");
    }

    @AfterEach
    void close() throws IOException {
        commands.close();
        bed.close();
        server.close();
    }

    @Test
    void aSecondsWaitIsSentInWholeSeconds() throws Exception {
        RedisEndpoint endpoint = new RedisEndpoint(server.host(), server.port(), 0, null, false, Duration.ofSeconds(10));
        try (JobSignalListener listener = new JobSignalListener(endpoint, List.of(plugin), bed.processor, bed.retries)) {
            listener.run();
        }

        assertEquals(Set.of("info:app1"), plugin.handled);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> commands.any(line -> line.contains(BLPOP)));
        assertTrue(commands.any(line -> line.endsWith(BLPOP + " \"1\"")), "a whole second: " + commands.lines);
    }

    @Test
    void aShorterWaitOnARedisBefore6IsAPopAndAPause() throws Exception {
        // a timeout of 1 s: a wait of half a second, which Redis 5 cannot be asked for
        RedisEndpoint endpoint = new RedisEndpoint(server.host(), server.port(), 0, null, false, Duration.ofSeconds(1));

        long started;
        try (JobSignalListener listener = new JobSignalListener(endpoint, List.of(plugin), bed.processor, bed.retries, false)) {
            listener.run();
            assertEquals(Set.of("info:app1"), plugin.handled);
            started = System.nanoTime();
            listener.run(); // nothing signalled: a pause
        }

        Duration idle = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(idle.compareTo(Duration.ofMillis(400)) >= 0, "paused half a second, not at once: " + idle);
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> commands.lines.stream().filter(line -> line.contains("\"LPOP\" \"" + Keyspace.JOBS_SIGNAL)).count() == 2);
        assertTrue(commands.lines.stream().noneMatch(line -> line.contains(BLPOP)), commands.lines.toString());
    }

    /** The commands a Redis server is sent from the time it is opened, read from {@code MONITOR} on a socket of its own. */
    private static final class CommandLog implements AutoCloseable {

        final List<String> lines = new CopyOnWriteArrayList<>();
        private final Socket socket;

        CommandLog(EmbeddedRedis server) throws IOException {
            socket = new Socket(server.host(), server.port());
            OutputStream out = socket.getOutputStream();
            out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (!"+OK".equals(in.readLine())) {
                throw new IOException("MONITOR was refused");
            }
            Thread.ofVirtual().start(() -> {
                try {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
        }

        boolean any(Predicate<String> test) {
            return lines.stream().anyMatch(test);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
