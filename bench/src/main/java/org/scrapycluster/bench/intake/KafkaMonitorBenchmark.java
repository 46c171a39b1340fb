package org.scrapycluster.bench.intake;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkHost;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkEnvironment;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster bench kafka-monitor}: the intake rate of one Kafka monitor
 * ({@link IntakeBenchmark}), against an embedded Kafka and Redis, or the ones given to
 * {@code bench --kafka/--redis}. {@code bench} logs at WARNING unless told otherwise, so that the
 * per-request log lines are not part of the figure; {@code bench --log-level INFO} measures with them.
 */
@Command(name = "kafka-monitor", mixinStandardHelpOptions = true,
        description = "Measure valid crawl requests per second from Kafka into Redis queues through one Kafka monitor.")
public final class KafkaMonitorBenchmark implements BenchmarkCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Option(names = "--requests", paramLabel = "N", description = "Crawl requests to file (default: ${DEFAULT-VALUE}).")
    int requests = 200_000;

    @Option(names = "--domains", paramLabel = "N", description = "Registered domains they spread over (default: ${DEFAULT-VALUE}).")
    int domains = 1_000;

    @Option(names = "--rounds", paramLabel = "N", description = "Times to run it, each on a fresh topic (default: ${DEFAULT-VALUE}).")
    int rounds = 1;

    @ParentCommand
    BenchmarkEnvironment environment;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (BenchmarkCluster cluster = environment.open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS)) {
            Map<String, Object> addresses = new LinkedHashMap<>();
            addresses.put("KAFKA_HOSTS", List.of(cluster.kafkaBootstrap()));
            addresses.put("REDIS_HOST", cluster.redis().host());
            addresses.put("REDIS_PORT", cluster.redis().port());
            Settings target = options.load("kafka-monitor").withLauncherValues(addresses);
            out.printf("Kafka monitor benchmark: %,d requests over %,d domains; Kafka %s%s, Redis %s%s; %s%n",
                    requests, domains, cluster.kafkaBootstrap(), cluster.isEmbedded(BenchmarkCluster.Server.KAFKA) ? " (embedded)" : "",
                    cluster.redis(), cluster.isEmbedded(BenchmarkCluster.Server.REDIS) ? " (embedded)" : "", BenchmarkHost.before());
            out.flush();
            for (int round = 1; round <= rounds; round++) {
                out.println("round " + round + ": " + new IntakeBenchmark(target, requests, domains).run());
                out.flush();
            }
            out.println(BenchmarkHost.after());
        }
        return 0;
    }
}
