package org.scrapycluster.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * The shaded services jar that the image runs (docs/operations.md, "Images"): nothing of the
 * embedded stack is in it, and it still talks to Kafka and ZooKeeper as a client.
 */
class ServicesJarIT {

    private static final Path JAR = Path.of(System.getProperty("services.jar", "target/scrapy-cluster-services.jar"));

    @Test
    void carriesNoServerOfKafkaZooKeeperOrRedis() throws IOException {
        List<String> offending = new ArrayList<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (ZipEntry entry : jar.stream().toList()) {
                String name = entry.getName();
                if (name.startsWith("kafka/server/") || name.startsWith("kafka/") && name.endsWith(".class") || name.startsWith("scala/")
                        || name.startsWith("org/apache/kafka/raft/") || name.startsWith("org/apache/kafka/metadata/")
                        || name.startsWith("org/apache/zookeeper/server/ZooKeeperServerMain")
                        || name.startsWith("org/apache/zookeeper/server/quorum/QuorumPeerMain")
                        || name.startsWith("org/apache/zookeeper/server/embedded/")
                        || name.startsWith("org/apache/curator/test/")
                        || name.contains("redis-server") || name.startsWith("redis/embedded/")
                        || name.startsWith("org/scrapycluster/embedded/") || name.startsWith("org/scrapycluster/standalone/")
                        || name.contains("/bench/")) {
                    offending.add(name);
                }
            }
            Manifest manifest = jar.getManifest();
            assertEquals("org.scrapycluster.common.cli.ScrapyClusterCommand", manifest.getMainAttributes().getValue("Main-Class"));
        }
        assertEquals(List.of(), offending);
    }

    @Test
    @ExtendWith(SharedStack.class)
    void talksToZooKeeperAndKafka(EmbeddedStack stack, @TempDir Path dir) throws Exception {
        Path throttle = Files.writeString(dir.resolve("throttle.yml"),
                "blacklist:\n- spam.com\ndomains:\n  shop.com:\n    window: 60\n    hits: 15\n");
        String zookeeper = "ZOOKEEPER_HOSTS=" + stack.zookeeperConnect();

        assertTrue(run("zookeeper", "push", throttle.toString(), "--set", zookeeper).startsWith("Pushed "));
        run("dump", "list", "--set", "KAFKA_HOSTS=" + stack.kafkaBootstrap());
    }

    /** Runs the jar with {@code args}; its standard output when it ends with status 0. */
    private static String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), String.join(" ", args) + " printed:\n" + output);
        return output;
    }
}
