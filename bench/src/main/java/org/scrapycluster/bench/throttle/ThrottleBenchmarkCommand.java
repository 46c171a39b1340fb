package org.scrapycluster.bench.throttle;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code scrapy-cluster bench throttle}: throttle decisions per second, see {@link ThrottleBenchmark}. */
@Command(name = "throttle", mixinStandardHelpOptions = true,
        description = "Throttle decisions per second from one process against one Redis (hand-out one by one, hand-out batched as a crawler node does, wait, and seeding scenarios).")
public final class ThrottleBenchmarkCommand implements BenchmarkCommand, Callable<Integer> {

    @Mixin
    BenchmarkRun run;

    @Option(names = "--concurrency", defaultValue = "64", paramLabel = "N",
            description = "Decisions kept in flight on the connection (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "SECONDS",
            description = "Longest duration of each scenario (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Override
    public Integer call() throws InterruptedException {
        if (concurrency < 1 || seconds < 1) {
            throw run.invalid("--concurrency and --seconds must be at least 1, were " + concurrency + " and " + seconds);
        }
        try (BenchmarkCluster cluster = run.open(BenchmarkCluster.Server.REDIS)) {
            run.begin("Throttle benchmark: Redis %s, %d calls in flight, up to %d s per scenario", cluster.redis(), concurrency, seconds);
            ThrottleBenchmark.run(cluster.redis(), concurrency, Duration.ofSeconds(seconds)).forEach(run.out()::println);
            run.end();
        }
        return 0;
    }
}
