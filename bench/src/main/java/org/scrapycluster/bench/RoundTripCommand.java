package org.scrapycluster.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

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

    @Option(names = "--rounds", paramLabel = "N", description = "Measured requests of each kind (default: ${DEFAULT-VALUE}).")
    int rounds = 1_000;

    @Option(names = "--warmup", paramLabel = "N", description = "Unmeasured requests of each kind sent first (default: ${DEFAULT-VALUE}).")
    int warmup = 200;

    @ParentCommand
    BenchmarkEnvironment environment;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException, TimeoutException {
        PrintWriter out = spec.commandLine().getOut();
        try (BenchmarkCluster cluster = environment.open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS,
                BenchmarkCluster.Server.ZOOKEEPER)) {
            Map<String, Object> values = new LinkedHashMap<>(RoundTripBenchmark.runValues("bench-" + UUID.randomUUID().toString()
                    .substring(0, 8)));
            values.put("KAFKA_HOSTS", List.of(cluster.kafkaBootstrap()));
            values.put("REDIS_HOST", cluster.redis().host());
            values.put("REDIS_PORT", cluster.redis().port());
            values.put("ZOOKEEPER_HOSTS", cluster.zookeeperConnect());
            SettingsGroup settings = options.loadAll().withLauncherValues(values);
            out.printf(Locale.ROOT, "Round-trip benchmark: %,d requests of each kind, one at a time, after %,d unmeasured; Kafka %s%s,"
                            + " Redis %s%s; %s%n", rounds, warmup, cluster.kafkaBootstrap(),
                    embedded(cluster, BenchmarkCluster.Server.KAFKA), cluster.redis(), embedded(cluster, BenchmarkCluster.Server.REDIS),
                    BenchmarkHost.before());
            out.flush();
            for (Result result : new RoundTripBenchmark(settings).run(RoundTripBenchmark.requests(), warmup, rounds)) {
                out.printf(Locale.ROOT, "%-10s p50 %6.1f ms  p90 %6.1f ms  p99 %6.1f ms  max %7.1f ms%n", result.job(), result.median(),
                        result.percentile(0.9), result.percentile(0.99), result.max());
            }
            out.println(BenchmarkHost.after());
        }
        out.flush();
        return 0;
    }

    private static String embedded(BenchmarkCluster cluster, BenchmarkCluster.Server server) {
        return cluster.isEmbedded(server) ? " (embedded)" : "";
    }
}
