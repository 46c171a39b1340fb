package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** {@code bench round-trip} on embedded servers: every request of each kind answered, and its figures printed. */
class RoundTripCommandTest {

    @Test
    void timesInfoAndStatsFromKafkaToKafka() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = ScrapyCluster.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        assertEquals(0, cli.execute("bench", "round-trip", "--rounds", "5", "--warmup", "2"), err.toString());
        List<String> lines = out.toString().lines().toList();
        assertTrue(lines.getFirst().startsWith("Round-trip benchmark: 5 requests of each kind, one at a time, after 2 unmeasured;"
                + " Kafka 127.0.0.1:"), out.toString());
        for (String request : List.of("info", "stats all")) {
            assertTrue(lines.stream().anyMatch(line -> line.matches(request + " +p50 +[0-9.]+ ms +p90 +[0-9.]+ ms +p99 +[0-9.]+ ms"
                    + " +max +[0-9.]+ ms")), out.toString());
        }
    }
}
