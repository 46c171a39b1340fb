package org.scrapycluster.bench.profile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jdk.jfr.Recording;

class ProfileSummaryTest {

    private static volatile long sink;

    @Test
    void aBusyThreadAndItsMethodLeadTheTables(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("busy.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofMillis(100));
            recording.start();
            Thread busy = Thread.ofPlatform().name("busy-worker-1").start(() -> spin(Duration.ofMillis(1500)));
            busy.join();
            recording.stop();
            recording.dump(file);
        }
        ProfileSummary summary = ProfileSummary.read(file, 0, Pattern.compile("busy-worker"));
        assertTrue(summary.samples() > 0, "samples of the busy thread");
        assertTrue(summary.threads(3).stream().anyMatch(share -> share.name().equals("busy-worker-#")), summary.threads(3).toString());
        assertTrue(summary.inclusive(5, Pattern.compile("ProfileSummaryTest")).stream()
                .anyMatch(share -> share.name().equals("ProfileSummaryTest.spin") && share.percent() > 90),
                summary.inclusive(5, Pattern.compile(".")).toString());
    }

    private static void spin(Duration length) {
        long end = System.nanoTime() + length.toNanos();
        long x = 0;
        while (System.nanoTime() < end) {
            x += Long.numberOfTrailingZeros(x + 1);
        }
        sink = x;
    }
}
