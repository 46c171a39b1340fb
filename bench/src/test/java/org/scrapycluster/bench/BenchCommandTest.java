package org.scrapycluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
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

    @Test
    void aBadCountIsAUsageErrorBeforeAnyServerStarts() {
        StringWriter err = new StringWriter();
        CommandLine bench = BenchCommand.commandLine();
        bench.setErr(new PrintWriter(err, true));

        assertEquals(2, bench.execute("throttle", "--concurrency", "-1"));
        assertTrue(err.toString().startsWith("--concurrency and --seconds must be at least 1, were -1 and 10\n"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, bench.execute("redis-monitor", "--requests", "-5"));
        assertTrue(err.toString().startsWith("--requests, --domains and --crawls must be at least 1 and in that order"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, bench.execute("--kafka", "127.0.0.1:9092,nocolon", "throttle"));
        assertTrue(err.toString().startsWith("--kafka: 'nocolon' is no host:port"), err.toString());
    }

    private static BenchCommand given(String... args) {
        CommandLine bench = BenchCommand.commandLine();
        bench.parseArgs(args);
        return bench.getCommand();
    }
}
