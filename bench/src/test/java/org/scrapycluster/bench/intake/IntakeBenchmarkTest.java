package org.scrapycluster.bench.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.bench.BenchCommand;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;

import picocli.CommandLine;

/** The benchmark runs end to end on a small load and leaves nothing behind; its speed is measured, not asserted. */
@ExtendWith(SharedStack.class)
class IntakeBenchmarkTest {

    private final EmbeddedStack stack;

    IntakeBenchmarkTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void filesEveryRequestAndCleansUp() throws Exception {
        IntakeBenchmark.Result result = new IntakeBenchmark(MonitorSettings.forStack(stack).build(), 3_000, 50).run();

        assertEquals(3_000, result.requests());
        assertEquals(3_000, result.queued(), "every request is in a queue when the clock stops");
        assertTrue(result.perSecond() > 0);
        assertTrue(result.toString().contains("3,000 crawl requests from Kafka into Redis queues in "), result.toString());
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            assertEquals(List.of(), redis.sync().keys("bench*"), "the benchmark's keys are deleted");
            assertEquals(List.of(), redis.sync().keys("crawl:bench*"));
        }
    }

    @Test
    void theCommandRunsAgainstTheServersItIsGiven() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine bench = BenchCommand.commandLine();
        bench.setOut(new PrintWriter(out));
        bench.setErr(new PrintWriter(err));

        int status = bench.execute("--kafka", stack.kafkaBootstrap(), "--redis", "127.0.0.1:" + stack.redisPort(),
                "kafka-monitor", "--requests", "500", "--domains", "5");

        assertEquals(0, status, err.toString());
        String report = out.toString();
        assertTrue(report.contains("; Kafka " + stack.kafkaBootstrap() + ", Redis redis://127.0.0.1:" + stack.redisPort() + "/0;"), report);
        assertTrue(report.contains("round 1: 500 crawl requests from Kafka into Redis queues in "), report);
        assertTrue(report.contains("load average"), report);
    }
}
