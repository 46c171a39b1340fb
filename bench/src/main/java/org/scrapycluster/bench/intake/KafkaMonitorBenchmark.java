package org.scrapycluster.bench.intake;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

    @Mixin
    BenchmarkRun run;

    @Option(names = "--requests", paramLabel = "N", description = "Crawl requests to file (default: ${DEFAULT-VALUE}).")
    int requests = 200_000;

    @Option(names = "--domains", paramLabel = "N", description = "Registered domains they spread over (default: ${DEFAULT-VALUE}).")
    int domains = 1_000;

    @Option(names = "--rounds", paramLabel = "N", description = "Times to run it, each on a fresh topic (default: ${DEFAULT-VALUE}).")
    int rounds = 1;

    @Override
    public Integer call() throws InterruptedException {
        try (BenchmarkCluster cluster = run.open(BenchmarkCluster.Server.KAFKA, BenchmarkCluster.Server.REDIS)) {
            Settings target = options.load("kafka-monitor").withLauncherValues(cluster.launcherValues());
            run.begin("Kafka monitor benchmark: %,d requests over %,d domains; Kafka %s, Redis %s", requests, domains,
                    cluster.describe(BenchmarkCluster.Server.KAFKA), cluster.describe(BenchmarkCluster.Server.REDIS));
            PrintWriter out = run.out();
            for (int round = 1; round <= rounds; round++) {
                out.println("round " + round + ": " + new IntakeBenchmark(target, requests, domains).run());
                out.flush();
            }
            run.end();
        }
        return 0;
    }
}
