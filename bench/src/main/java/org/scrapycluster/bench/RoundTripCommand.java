package org.scrapycluster.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.bench.jobs.RedisMonitorBenchmark.Result;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code scrapy-cluster bench round-trip}: the time from a request on Kafka to its answer on Kafka
 * on an idle cluster ({@link RoundTripBenchmark}), for info and stats, with the Kafka and Redis
 * monitors running in this process against an embedded Kafka, Redis and ZooKeeper, or the ones
 * given to {@code bench --kafka/--redis/--zookeeper}. Prints p50, p90, p99 and max of each, and
 * the machine's load average, which the figures depend on.
 */
@Command(name = "round-trip", mixinStandardHelpOptions = true,
        description = "Time info and stats requests from Kafka to their answer on Kafka, one at a time, on an idle cluster.")
public final class RoundTripCommand implements BenchmarkCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Mixin
    BenchmarkRun run;

    @Option(names = "--rounds", paramLabel = "N", description = "Measured requests of each kind (default: ${DEFAULT-VALUE}).")
    int rounds = 1_000;

    @Option(names = "--warmup", paramLabel = "N", description = "Unmeasured requests of each kind sent first (default: ${DEFAULT-VALUE}).")
    int warmup = 200;

    @Override
    public Integer call() throws InterruptedException, TimeoutException {
        if (rounds < 1 || warmup < 0) {
            throw run.invalid("--rounds must be at least 1 and --warmup at least 0; were " + rounds + " and " + warmup);
        }
        try (BenchmarkCluster cluster = run.open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS,
                BenchmarkCluster.Server.ZOOKEEPER)) {
            Map<String, Object> values = new LinkedHashMap<>(RoundTripBenchmark.runValues("bench-" + UUID.randomUUID().toString()
                    .substring(0, 8)));
            values.putAll(cluster.launcherValues());
            SettingsGroup settings = options.loadAll().withLauncherValues(values);
            run.begin("Round-trip benchmark: %,d requests of each kind, one at a time, after %,d unmeasured; Kafka %s, Redis %s", rounds,
                    warmup, cluster.describe(BenchmarkCluster.Server.KAFKA), cluster.describe(BenchmarkCluster.Server.REDIS));
            PrintWriter out = run.out();
            for (Result result : new RoundTripBenchmark(settings).run(RoundTripBenchmark.requests(), warmup, rounds)) {
                out.printf(Locale.ROOT, "%-10s p50 %6.1f ms  p90 %6.1f ms  p99 %6.1f ms  max %7.1f ms%n", result.job(), result.median(),
                        result.percentile(0.9), result.percentile(0.99), result.max());
            }
            run.end();
        }
        return 0;
    }
}
