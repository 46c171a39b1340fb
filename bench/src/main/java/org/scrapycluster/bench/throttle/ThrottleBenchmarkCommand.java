package org.scrapycluster.bench.throttle;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkHost;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkEnvironment;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code scrapy-cluster bench throttle}: throttle decisions per second, see {@link ThrottleBenchmark}. */
@Command(name = "throttle", mixinStandardHelpOptions = true,
        description = "Throttle decisions per second from one process against one Redis (hand-out, wait and seeding scenarios).")
public final class ThrottleBenchmarkCommand implements BenchmarkCommand, Callable<Integer> {

    @ParentCommand
    BenchmarkEnvironment environment;

    @Spec
    CommandSpec spec;

    @Option(names = "--concurrency", defaultValue = "64", description = "Decisions kept in flight on the connection (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--seconds", defaultValue = "10", description = "Longest duration of each scenario (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Override
    public Integer call() throws InterruptedException {
        try (BenchmarkCluster cluster = environment.open(BenchmarkCluster.Server.REDIS)) {
            var out = spec.commandLine().getOut();
            out.printf(Locale.ROOT, "Throttle benchmark: Redis %s, %d calls in flight, up to %d s per scenario; %s%n",
                    cluster.redis(), concurrency, seconds, BenchmarkHost.before());
            out.flush();
            ThrottleBenchmark.run(cluster.redis(), concurrency, Duration.ofSeconds(seconds)).forEach(out::println);
            out.println(BenchmarkHost.after());
            out.flush();
        }
        return 0;
    }
}
