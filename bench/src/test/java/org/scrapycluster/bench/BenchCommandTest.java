package org.scrapycluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** The cluster {@code bench} hands a benchmark when every server it needs is given: nothing is started. */
class BenchCommandTest {

    @Test
    void pointsTheServicesAtTheGivenServersItWasAskedFor() {
        try (BenchmarkCluster cluster = given("--kafka", "kafka.test:9092", "--redis", "redis.test:6380", "--zookeeper", "zk.test:2181")
                .open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS)) {
            assertEquals(Map.of("KAFKA_HOSTS", List.of("kafka.test:9092"), "REDIS_HOST", "redis.test", "REDIS_PORT", 6380),
                    cluster.launcherValues());
            assertEquals("kafka.test:9092", cluster.describe(BenchmarkCluster.Server.KAFKA));
            assertEquals("redis://redis.test:6380/0", cluster.describe(BenchmarkCluster.Server.REDIS));
            assertThrows(IllegalStateException.class, () -> cluster.describe(BenchmarkCluster.Server.ZOOKEEPER),
                    "a server the benchmark did not ask for is not available");
        }
    }

    @Test
    void givesZooKeeperWhenAskedFor() {
        try (BenchmarkCluster cluster = given("--zookeeper", "zk.test:2181").open(BenchmarkCluster.Server.ZOOKEEPER)) {
            assertEquals(Map.of("ZOOKEEPER_HOSTS", "zk.test:2181"), cluster.launcherValues());
            assertEquals("zk.test:2181", cluster.describe(BenchmarkCluster.Server.ZOOKEEPER));
        }
    }

    private static BenchCommand given(String... args) {
        CommandLine bench = BenchCommand.commandLine();
        bench.parseArgs(args);
        return bench.getCommand();
    }
}
