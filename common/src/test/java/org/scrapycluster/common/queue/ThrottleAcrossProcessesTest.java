package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

/**
 * The throttle is exact across processes: two JVMs with four threads each hammer one domain
 * (10 hits per 2 s, not moderated) for 10 s. Checked from the server-clock hand-out times.
 */
@ExtendWith(TestRedis.class)
class ThrottleAcrossProcessesTest {

    private static final int HITS = 10;
    private static final long WINDOW_MICROS = 2_000_000;
    private static final Duration RUN = Duration.ofSeconds(10);

    private final RedisConnection redis;

    ThrottleAcrossProcessesTest(RedisConnection redis) {
        this.redis = redis;
    }

    @Test
    void twoProcessesTogetherNeverExceedTheLimitAndUseAtLeast95Percent() throws Exception {
        String spider = TestRedis.unique("hammer");
        QueueKey queue = new QueueKey(spider, "ex1.com");
        ThrottleSpec spec = new ThrottleSpec(spider + ":ex1.com", 2.0, HITS, false);
        Enqueuer enqueuer = new Enqueuer(redis, false);
        List<EnqueueRequest> seeds = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            seeds.add(EnqueueRequest.of(queue, Members.feedItem("https://ex1.com/" + i, "app", "c1", 1, 0)));
        }
        assertTrue(enqueuer.enqueueBatch(seeds).stream().allMatch(EnqueueOutcome::queued));

        Path output = Files.createTempFile("hammer", ".out");
        Process other = new ProcessBuilder(javaCommand(), "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ThrottleHammer.class.getName(),
                Integer.toString(redis.endpoint().port()), spider, queue.domain(), spec.throttleKey(), "2.0",
                Integer.toString(HITS), "false", "4", Long.toString(RUN.toMillis()))
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(
                () -> !other.isAlive() || Files.readAllLines(output).contains(ThrottleHammer.READY));
        List<Instant> here = ThrottleHammer.hammer(redis, queue, spec, 4, RUN);
        assertTrue(other.waitFor(60, TimeUnit.SECONDS), "the second JVM did not finish");
        assertEquals(0, other.exitValue(), "the second JVM failed");

        List<Long> times = new ArrayList<>(here.stream().map(ThrottleHammer::micros).toList());
        List<String> lines = Files.readAllLines(output);
        Files.delete(output);
        lines.stream().filter(line -> !line.isBlank() && !line.equals(ThrottleHammer.READY)).map(Long::parseLong)
                .forEach(times::add);
        times.sort(null);
        assertTrue(!here.isEmpty() && times.size() > here.size(), "both processes got hand-outs: " + here.size()
                + " here, " + (times.size() - here.size()) + " in the other JVM");

        for (int i = 0; i < times.size(); i++) {
            int inWindow = 0;
            for (int j = i; j < times.size() && times.get(j) < times.get(i) + WINDOW_MICROS; j++) {
                inWindow++;
            }
            assertTrue(inWindow <= HITS, inWindow + " hand-outs within 2 s from " + times.get(i));
        }
        // Utilisation over the whole windows between the first and the last hand-out: the run's end
        // cuts the last window short, so it is not counted against the throttle.
        long first = times.getFirst();
        long fullWindows = (times.getLast() - first) / WINDOW_MICROS;
        long allowed = HITS * fullWindows;
        long used = times.stream().filter(t -> t < first + fullWindows * WINDOW_MICROS).count();
        assertTrue(fullWindows >= 4, "the hammer ran for " + fullWindows + " whole windows only");
        assertTrue(used >= 0.95 * allowed, used + " hand-outs in " + fullWindows + " whole windows, " + allowed + " allowed");
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
