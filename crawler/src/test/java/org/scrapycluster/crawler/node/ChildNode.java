package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.scrapycluster.common.service.FatalExit;

/** A crawler node in a JVM of its own, with the settings of a test bed, and the file its output goes to. */
record ChildNode(Process process, Path output) {

    /** Starts a node of {@code bed}'s settings with {@code heap} ({@code -Xmx}) and waits until it is ready or has exited. */
    static ChildNode start(CrawlerTestBed bed, String heap) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                CrawlerNodeMain.class.getName()));
        for (Map.Entry<String, String> setting : bed.settingValues().entrySet()) {
            command.add(setting.getKey() + "=" + setting.getValue());
        }
        Path output = Files.createTempFile("crawler-child", ".out");
        output.toFile().deleteOnExit();
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(
                () -> !child.isAlive() || Files.readAllLines(output).contains(CrawlerNodeMain.READY));
        assertTrue(child.isAlive() || child.exitValue() == FatalExit.STATUS, "the child did not start: " + Files.readString(output));
        return new ChildNode(child, output);
    }

    /** What the node wrote so far. */
    String log() throws IOException {
        return Files.readString(output);
    }
}
