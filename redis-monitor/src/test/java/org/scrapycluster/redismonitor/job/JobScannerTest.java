package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CommandStats;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Each plugin is handed the job keys of its pattern and no other, whether the scan is one pass by type (Redis 6.0 and
 * newer) or one unfiltered pass (older servers); one monitor of the cluster scans at a time.
 */
@ExtendWith(SharedStack.class)
class JobScannerTest {

    private final String prefix = "jobscan" + UUID.randomUUID().toString().replace("-", "");
    private JobTestBed bed;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, prefix, 3);
    }

    @AfterEach
    void close() {
        bed.deleteKeysContaining(prefix);
        bed.close();
    }

    @ParameterizedTest(name = "scan by type: {0}")
    @ValueSource(booleans = {true, false})
    void eachPluginIsHandedTheJobsOfItsPattern(boolean byType) throws Exception {
        RecordingPlugin info = new RecordingPlugin(prefix + ":info:*");
        RecordingPlugin stop = new RecordingPlugin(prefix + ":stop:*:*");
        List<String> infoJobs = List.of(prefix + ":info:app1", prefix + ":info:app2");
        List<String> stopJobs = List.of(prefix + ":stop:app1:crawl1");
        infoJobs.forEach(key -> bed.redis.sync().set(key, "uuid-" + key));
        stopJobs.forEach(key -> bed.redis.sync().set(key, "uuid-" + key));
        bed.redis.sync().set(prefix + ":stop:app1", "not of the stop pattern");
        bed.redis.sync().zadd(prefix + ":queue", 1, "not a job");

        new JobScanner(bed.redis, List.of(info, stop), bed.processor, Clock.systemUTC(), Duration.ofSeconds(1), byType).scanOnce();

        assertEquals(Set.copyOf(infoJobs), info.handled);
        assertEquals(Set.copyOf(stopJobs), stop.handled);
    }

    @Test
    void oneMonitorOfTheClusterScansAndTheOthersWaitForItsPauseToEnd() throws Exception {
        RecordingPlugin first = new RecordingPlugin(prefix + ":info:*");
        RecordingPlugin second = new RecordingPlugin(prefix + ":info:*");
        String turn = JobScanner.turnKey(List.of(first));
        bed.redis.sync().del(turn);
        Thread scanning = scanningThroughALongPause(first);
        try {
            bed.redis.sync().set(prefix + ":info:app2", "uuid-2");

            new JobScanner(bed.redis, List.of(second), bed.processor, Clock.systemUTC(), Duration.ofMillis(50)).run();

            assertEquals(Set.of(), second.handled, "the first monitor holds the turn through its pause");
            long held = bed.redis.sync().pttl(turn);
            assertTrue(held > 20_000 && held <= 30_000, "held for the first monitor's pause, SLEEP_TIME here: " + held);
        } finally {
            scanning.interrupt();
            scanning.join();
            bed.redis.sync().del(turn);
        }
    }

    @Test
    void aMonitorThatRunsOtherPluginsScansInATurnOfItsOwn() throws Exception {
        RecordingPlugin info = new RecordingPlugin(prefix + ":info:*");
        RecordingPlugin custom = new RecordingPlugin(prefix + ":custom:*");
        Thread scanning = scanningThroughALongPause(info); // a monitor without the custom plugin
        try {
            bed.redis.sync().set(prefix + ":custom:app1", "uuid-2");

            // one that was given a plugin jar the first lacks (a rolling upgrade)
            new JobScanner(bed.redis, List.of(custom, new RecordingPlugin(prefix + ":info:*")), bed.processor,
                    Clock.systemUTC(), Duration.ofMillis(50)).run();

            assertEquals(Set.of(prefix + ":custom:app1"), custom.handled, "the custom plugin's jobs are scanned for");
        } finally {
            scanning.interrupt();
            scanning.join();
        }
    }

    @Test
    void thePauseAfterAScanFollowsItsWalkOverTheKeysNotTheTimeItsJobsTook() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("job-scan-pace"));
             JobTestBed own = new JobTestBed(server.port(), prefix, 3)) {
            RecordingPlugin slow = new RecordingPlugin(prefix + ":info:*", Duration.ofMillis(400));
            own.redis.sync().set(prefix + ":info:app1", "uuid-1");

            long started = System.nanoTime();
            new JobScanner(own.redis, List.of(slow), own.processor, Clock.systemUTC(), Duration.ofMillis(50)).run();
            Duration scanAndPause = Duration.ofNanos(System.nanoTime() - started);

            assertEquals(Set.of(prefix + ":info:app1"), slow.handled);
            // a walk over a few keys takes milliseconds: the pause is SLEEP_TIME, not 39 times the job's 400 ms (15.6 s)
            assertTrue(scanAndPause.compareTo(Duration.ofSeconds(5)) < 0, "scanned and paused in " + scanAndPause);
        }
    }

    @Test
    void aMonitorThatHoldsTheTurnScansWithoutAskingForItAgainUntilHalfItsHoldIsGone() throws Exception {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("job-scan-turn"));
             JobTestBed own = new JobTestBed(server.port(), prefix, 3)) {
            JobScanner scanner = new JobScanner(own.redis, List.of(new RecordingPlugin(prefix + ":info:*")), own.processor,
                    Clock.systemUTC(), Duration.ofMillis(20));
            own.redis.sync().configResetstat();

            long started = System.nanoTime();
            for (int scan = 0; scan < 10; scan++) {
                scanner.run(); // a scan of a few keys and a pause of 20 ms
            }
            long halfSeconds = (System.nanoTime() - started) / 500_000_000L;

            String stats = own.redis.sync().info("commandstats");
            assertEquals(10, CommandStats.calls(stats, "scan"), stats);
            // the turn is held for a second and taken again once half of it is gone: once, and once more each half second
            assertTrue(CommandStats.calls(stats, "set") <= 1 + halfSeconds, "the turn's takes (SET NX in its script), "
                    + halfSeconds + " half seconds: " + stats);
            assertTrue(own.redis.sync().pttl(JobScanner.turnKey(List.of(new RecordingPlugin(prefix + ":info:*")))) > 0,
                    "still held for the others");
        }
    }

    /**
     * A monitor of {@code plugin} alone, on a thread of its own, that has scanned once (the job it found, {@code info:app1},
     * handled) and holds the turn through its pause of 30 s, until the thread is interrupted.
     */
    private Thread scanningThroughALongPause(RecordingPlugin plugin) {
        bed.redis.sync().set(prefix + ":info:app1", "uuid-1");
        Thread scanning = Thread.ofPlatform().start(() -> {
            try {
                new JobScanner(bed.redis, List.of(plugin), bed.processor, Clock.systemUTC(), Duration.ofSeconds(30)).run();
            } catch (InterruptedException stopped) {
                // the test is over
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> plugin.handled.contains(prefix + ":info:app1"));
        return scanning;
    }
}
