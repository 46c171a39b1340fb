package org.scrapycluster.bench.crawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.bench.BenchCommand;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

import picocli.CommandLine;

/** The crawl benchmark runs end to end on a small site, with a real crawler JVM; its speed is measured, not asserted. */
class CrawlBenchCommandTest {

    @Test
    void crawlsEveryReachablePageOnceInEachCrawlAndStopsTheNode() {
        int pages = 2 * 3 * 10;
        Set<Long> before = aliveChildren().map(ProcessHandle::pid).collect(Collectors.toSet());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine bench = BenchCommand.commandLine();
        bench.setOut(new PrintWriter(out));
        bench.setErr(new PrintWriter(err));

        int status = bench.execute("crawl", "--domains", "3", "--pages", "10", "--page-bytes", "2000", "--links", "4", "--rounds", "2",
                "--crawls", "2", "--concurrency", "6", "--heap", "128m", "--set", "LEASE_REAP_INTERVAL=1");

        assertEquals(0, status, err.toString());
        String report = out.toString();
        assertTrue(report.contains("a round is 2 crawls at once from page 0 of every domain, each to every page it reaches: " + pages
                + " pages;"), report);
        assertTrue(report.contains("crawler node JVM: -Xmx128m "), report);
        assertTrue(report.contains("CONCURRENT_REQUESTS=6 CONCURRENT_REQUESTS_PER_DOMAIN=2 "), report);
        assertTrue(report.contains("LEASE_REAP_INTERVAL=1"), report);
        for (String round : List.of("round 1: ", "round 2: ")) {
            assertTrue(report.contains(round + pages + " pages in "), report);
        }
        assertTrue(report.contains("crawler peak RSS over its whole life (VmHWM): "), report);
        assertTrue(report.contains("crawler CPU by thread, rounds 2 to 2: "), report);
        assertTrue(report.contains("%  crawler-worker-"), report);
        assertEquals(List.of(), aliveChildren().filter(child -> !before.contains(child.pid()))
                .map(child -> child.info().command().orElse("?")).toList(), "the crawler node and redis-server are stopped");
    }

    @Test
    void countsTheCpuOfTheRedisServerItStarted() {
        Duration before = CrawlBenchmark.redisCpu();
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("bench-redis-cpu"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            redis.sync().eval("local n = 0 for i = 1, 30000000 do n = n + i end return 0", ScriptOutputType.INTEGER);
            Duration spent = CrawlBenchmark.redisCpu().minus(before);
            assertTrue(spent.compareTo(Duration.ofMillis(50)) >= 0, "the loop's CPU is counted, got " + spent);
        }
    }

    @Test
    void readsAThreadsCpuTimeFromItsStatLine() {
        String stat = "4711 (lettuce-epoll) Ev) S 4700 4700 0 0 -1 4194368 1033 0 0 0 1234 56 0 0 20 0 31 0 871 0 0";
        assertEquals(Duration.ofMillis(12_900), ProcessUsage.threadCpu(stat), "utime 1234 + stime 56 ticks of 10 ms");
    }

    /** Processes of this JVM; other tests of the same JVM may share a redis-server that outlives this one. */
    private static Stream<ProcessHandle> aliveChildren() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rounds", "crawls"})
    void refusesARunWithNoneOf(String count) {
        StringWriter err = new StringWriter();
        CommandLine bench = BenchCommand.commandLine();
        bench.setErr(new PrintWriter(err));

        int status = bench.execute("crawl", "--" + count, "0");

        assertEquals(2, status);
        assertTrue(err.toString().contains(count + " must be at least 1"), err.toString());
    }
}
