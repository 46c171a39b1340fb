package org.scrapycluster.bench.jobs;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

import org.scrapycluster.bench.BenchmarkCluster;
import org.scrapycluster.bench.BenchmarkCommand;
import org.scrapycluster.bench.BenchmarkRun;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code scrapy-cluster bench redis-monitor}: loads a large backlog and times the Redis monitor's
 * info and stats answers ({@link RedisMonitorBenchmark}). By default {@code bench} runs a private
 * {@code redis-server} (stopped at the end, so its memory is given back) and an embedded Kafka;
 * with {@code bench --redis} and {@code --kafka} running ones are used instead, and the
 * benchmark's keys are deleted afterwards.
 */
@Command(name = "redis-monitor", mixinStandardHelpOptions = true,
        description = "Time info and stats answers of the Redis monitor on a large backlog (1,000,000 requests over 10,000 domains by default).")
public final class RedisMonitorBenchCommand implements BenchmarkCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Mixin
    BenchmarkRun run;

    @Option(names = "--requests", paramLabel = "N", description = "Requests to queue (default ${DEFAULT-VALUE}).")
    long requests = 1_000_000;

    @Option(names = "--domains", paramLabel = "N", description = "Domains they are spread over (default ${DEFAULT-VALUE}).")
    int domains = 10_000;

    @Option(names = "--crawls", paramLabel = "N", description = "Crawls of the one app, each on its own slice of the domains (default ${DEFAULT-VALUE}).")
    int crawls = 10;

    @Option(names = "--rounds", paramLabel = "N", description = "Times each job is asked on the backlog (default ${DEFAULT-VALUE}).")
    int rounds = 5;

    @Option(names = "--idle-rounds", paramLabel = "N", description = "Times info is asked before the backlog is loaded (default ${DEFAULT-VALUE}).")
    int idleRounds = 100;

    @Option(names = "--redis-db", paramLabel = "N", description = "Database of the Redis to use (default ${DEFAULT-VALUE}).")
    int redisDb = 0;

    @Override
    public Integer call() throws InterruptedException, TimeoutException {
        // Before any server is started: a usage error, not a failure after the embedded Kafka's start-up.
        if (crawls < 1 || domains < crawls || requests < domains || rounds < 1 || idleRounds < 1) {
            throw run.invalid("--requests, --domains and --crawls must be at least 1 and in that order (requests >= domains >= crawls),"
                    + " and --rounds and --idle-rounds at least 1; were " + requests + ", " + domains + ", " + crawls + ", " + rounds
                    + " and " + idleRounds);
        }
        try (BenchmarkCluster cluster = run.open(BenchmarkCluster.Server.REDIS, BenchmarkCluster.Server.KAFKA)) {
            RedisEndpoint redisEndpoint = cluster.redis().withDb(redisDb);
            Map<String, Object> launcher = new LinkedHashMap<>(cluster.launcherValues());
            launcher.put("REDIS_DB", redisDb);
            launcher.put("KAFKA_TOPIC_PREFIX", "bench-" + UUID.randomUUID().toString().substring(0, 8));
            launcher.put("METRICS_PORT", -1);
            launcher.put("STATS_DUMP", 0);
            launcher.put("PLUGINS", Map.of("plugins.info_monitor.InfoMonitor", 100, "plugins.stats_monitor.StatsMonitor", 400));
            Settings settings = options.load("redis-monitor").withLauncherValues(launcher);
            run.begin("Redis monitor benchmark: %,d requests over %,d domains in %d crawls of one app; Redis %s%s, Kafka %s", requests,
                    domains, crawls, redisEndpoint, cluster.isEmbedded(BenchmarkCluster.Server.REDIS) ? " (private)" : "",
                    cluster.describe(BenchmarkCluster.Server.KAFKA));
            PrintWriter out = run.out();
            try (RedisConnection redis = RedisConnection.open(redisEndpoint)) {
                RedisMonitorBenchmark benchmark = new RedisMonitorBenchmark(settings, redis);
                try {
                    RedisMonitorBenchmark.Report report = benchmark.run(requests, domains, crawls, idleRounds, rounds);
                    out.printf(Locale.ROOT, "loaded in %.1f s (%,.0f requests/s through the enqueue script); Redis memory %s%n",
                            report.loading().toMillis() / 1000.0, report.requests() / (report.loading().toMillis() / 1000.0),
                            report.redisMemory());
                    report.results().forEach(out::println);
                    run.end();
                } finally {
                    if (!cluster.isEmbedded(BenchmarkCluster.Server.REDIS)) {
                        benchmark.cleanUp();
                    }
                }
            }
        }
        return 0;
    }
}
