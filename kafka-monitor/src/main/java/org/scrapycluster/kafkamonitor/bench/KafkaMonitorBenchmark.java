package org.scrapycluster.kafkamonitor.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.scrapycluster.common.cli.BenchmarkCommand;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.embedded.EmbeddedStack;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster bench kafka-monitor}: the intake rate of one Kafka monitor
 * ({@link IntakeBenchmark}), against an embedded Kafka and Redis, or against the ones
 * {@code KAFKA_HOSTS} and {@code REDIS_HOST}/{@code REDIS_PORT} name when they are set. Logging is
 * at WARNING unless a level is given, so that the per-request log lines are not part of the
 * figure; {@code --log-level INFO} measures with them.
 */
@Command(name = "kafka-monitor", mixinStandardHelpOptions = true,
        description = {"Measure valid crawl requests per second from Kafka into Redis queues through one Kafka monitor.",
                "Uses an embedded Kafka and Redis unless KAFKA_HOSTS, REDIS_HOST or REDIS_PORT is set."})
public final class KafkaMonitorBenchmark implements BenchmarkCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Option(names = "--requests", paramLabel = "N", description = "Crawl requests to file (default: ${DEFAULT-VALUE}).")
    int requests = 200_000;

    @Option(names = "--domains", paramLabel = "N", description = "Registered domains they spread over (default: ${DEFAULT-VALUE}).")
    int domains = 1_000;

    @Option(names = "--rounds", paramLabel = "N", description = "Times to run it, each on a fresh topic (default: ${DEFAULT-VALUE}).")
    int rounds = 1;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = options.load("kafka-monitor");
        Map<String, Object> quiet = new LinkedHashMap<>();
        if (!settings.isUserSet("LOG_LEVEL")) {
            quiet.put("LOG_LEVEL", "WARNING");
        }
        settings = settings.withLauncherValues(quiet);
        Logging.configure(settings);
        PrintWriter out = spec.commandLine().getOut();
        boolean embeddedKafka = !settings.isUserSet("KAFKA_HOSTS");
        boolean embeddedRedis = !settings.isUserSet("REDIS_HOST") && !settings.isUserSet("REDIS_PORT");
        try (EmbeddedStack stack = EmbeddedStack.start(new EmbeddedStack.Options(embeddedKafka ? 0 : null, null,
                embeddedRedis ? 0 : null, 1, null))) {
            Map<String, Object> addresses = new LinkedHashMap<>();
            stack.kafka().ifPresent(kafka -> addresses.put("KAFKA_HOSTS", List.of(kafka.bootstrapServers())));
            stack.redis().ifPresent(redis -> {
                addresses.put("REDIS_HOST", redis.host());
                addresses.put("REDIS_PORT", redis.port());
            });
            Settings target = settings.withLauncherValues(addresses);
            out.printf("Kafka monitor benchmark: %,d requests over %,d domains; Kafka %s%s, Redis %s:%d%s; %d cores; logging at %s%n",
                    requests, domains, String.join(",", target.getStringList("KAFKA_HOSTS")), embeddedKafka ? " (embedded)" : "",
                    target.getString("REDIS_HOST"), target.getInt("REDIS_PORT"), embeddedRedis ? " (embedded)" : "",
                    Runtime.getRuntime().availableProcessors(), target.getString("LOG_LEVEL"));
            out.flush();
            for (int round = 1; round <= rounds; round++) {
                out.println("round " + round + ": " + new IntakeBenchmark(target, requests, domains).run());
                out.flush();
            }
        }
        return 0;
    }
}
