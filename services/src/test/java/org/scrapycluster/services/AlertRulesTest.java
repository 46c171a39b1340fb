package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules of {@code deploy/monitoring/prometheus/alerts.yml} evaluated by Prometheus's own engine:
 * {@code promtool test rules} runs the unit tests beside them ({@code alerts.test.yml}), in which one Prometheus watches
 * three clusters, each in its namespace, and every alert names the cluster it is about (docs/operations.md, "Dashboards
 * and alerts"). promtool comes with Debian's {@code prometheus} package, which CI installs.
 */
class AlertRulesTest {

    private static final Path TESTS = RepositoryFiles.root().resolve("deploy/monitoring/prometheus/alerts.test.yml");

    @Test
    void promtoolFindsEveryAlertWhereItsTestsExpectIt(@TempDir Path work) throws IOException, InterruptedException {
        Optional<Path> promtool = onPath("promtool");
        assumeTrue(promtool.isPresent(), "needs promtool (apt-get install prometheus)");
        Path said = work.resolve("promtool.txt"); // a file, not a pipe: a long report cannot hold promtool up
        Process run = new ProcessBuilder(promtool.get().toString(), "test", "rules", TESTS.getFileName().toString())
                .directory(TESTS.getParent().toFile()).redirectErrorStream(true).redirectOutput(said.toFile()).start();
        if (!run.waitFor(60, TimeUnit.SECONDS)) {
            run.destroyForcibly();
        }
        String output = Files.readString(said, StandardCharsets.UTF_8);
        assertEquals(0, run.waitFor(), output);
        assertTrue(output.contains("SUCCESS"), output);
    }

    private static Optional<Path> onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(folder -> !folder.isEmpty())
                .map(folder -> Path.of(folder, command))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
