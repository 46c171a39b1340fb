package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.FreePorts;

/** Runs standalone as its own JVM, as the launcher does, and stops it with SIGTERM. */
class StandaloneProcessTest {

    private static final Pattern REDIS = Pattern.compile("redis 127\\.0\\.0\\.1:(\\d+)");

    @Test
    void sigtermStopsEverythingItStarted() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp", System.getProperty("java.class.path"), ScrapyCluster.class.getName(), "standalone",
                "--log-level", "WARNING", "--set", "STANDALONE_KAFKA_PORT=0", "--set", "STANDALONE_ZOOKEEPER_PORT=0",
                "--set", "STANDALONE_REDIS_PORT=0", "--set", "METRICS_PORT=-1", "--set", "FLASK_PORT=0"))
                .redirectErrorStream(true)
                .start();
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

            process.destroy();
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "standalone stops on SIGTERM");
            for (ProcessHandle child : children) {
                child.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(child.isAlive(), "no orphaned " + child.info().command().orElse("child"));
            }
            assertFalse(FreePorts.inUse(redisPort));
        } finally {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
