package org.scrapycluster.bench.jobs;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.bench.SpiderKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.redismonitor.RedisMonitorFactory;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Measures how long the Redis monitor takes to answer info and stats on a large backlog: it files
 * {@code requests} requests over {@code domains} domains in {@code crawls} crawls of one app
 * through the enqueue script (pipelined, with accounting, as the Kafka monitor and crawlers file
 * them), runs a Redis monitor in this process, and times each job from writing its key (with its
 * signal) to its answer arriving on Kafka. Before the load it also times info on an idle cluster.
 * Crawl {@code k} has its own slice of the domains, so an app-level answer names every domain
 * once and a crawl-level one its slice.
 */
public final class RedisMonitorBenchmark {

    private static final int BATCH = 5_000;
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final String APP = "benchapp";

    private final Settings settings;
    private final RedisConnection redis;
    private final String spider = "bench" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> loadedCrawls = new ArrayList<>();

    /**
     * @param settings the Redis monitor's settings, pointed at the Redis and Kafka to use
     * @param redis    a connection to that Redis
     */
    public RedisMonitorBenchmark(Settings settings, RedisConnection redis) {
        this.settings = settings;
        this.redis = redis;
    }

    /**
     * The times of one kind of job.
     *
     * @param job         what was asked
     * @param millis      each round's time from writing the key to the answer, in milliseconds
     * @param answerBytes the size of the last answer
     */
    public record Result(String job, List<Double> millis, int answerBytes) {

        public double median() {
            return percentile(0.5);
        }

        public double max() {
            return millis.stream().max(Comparator.naturalOrder()).orElse(0.0);
        }

        /** The {@code fraction} quantile by nearest rank. */
        public double percentile(double fraction) {
            List<Double> sorted = millis.stream().sorted().toList();
            return sorted.get(Math.max(0, (int) Math.ceil(fraction * sorted.size()) - 1));
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-18s p50 %8.1f ms  p90 %8.1f ms  max %8.1f ms  (%d rounds, answer %,d bytes)",
                    job, median(), percentile(0.9), max(), millis.size(), answerBytes);
        }
    }

    /** What one run measured, and the load. */
    public record Report(long requests, int domains, int crawls, Duration loading, String redisMemory, List<Result> results) {
    }

    /** Runs the idle round trips, loads the backlog, then runs {@code rounds} of each job. */
    public Report run(long requests, int domains, int crawls, int idleRounds, int rounds) throws InterruptedException, TimeoutException {
        if (domains < crawls || requests < domains) {
            throw new IllegalArgumentException("need requests >= domains >= crawls, got " + requests + ", " + domains + ", " + crawls);
        }
        String topic = settings.getString("KAFKA_TOPIC_PREFIX") + ".outbound_firehose";
        Service monitor = new RedisMonitorFactory().create(context());
        try (AnswerClock answers = new AnswerClock(KafkaClients.bootstrapServers(settings), topic)) {
            monitor.start();
            List<Result> results = new ArrayList<>();
            load(spider + "idle", 10, 10, 1);
            results.add(measure(answers, "info idle", Keyspace.INFO_CRAWL.fill(spider + "idle", APP, "c0"), idleRounds));
            long started = System.nanoTime();
            load(spider, requests, domains, crawls);
            Duration loading = Duration.ofNanos(System.nanoTime() - started);
            results.add(measure(answers, "info crawl-level", Keyspace.INFO_CRAWL.fill(spider, APP, "c0"), rounds));
            results.add(measure(answers, "info app-level", Keyspace.INFO_APP.fill(spider, APP), rounds));
            results.add(measure(answers, "stats queue", Keyspace.STATS_REQUEST.fill("queue", APP), rounds));
            results.add(measure(answers, "stats all", Keyspace.STATS_REQUEST.fill("all", APP), rounds));
            return new Report(requests, domains, crawls, loading, redis.sync().info("memory").lines()
                    .filter(line -> line.startsWith("used_memory_human:")).map(line -> line.substring(line.indexOf(':') + 1).strip())
                    .findFirst().orElse("?"), results);
        } finally {
            monitor.close();
        }
    }

    private ServiceContext context() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return new ServiceContext(settings, meters, meters, new HealthRegistry(), NodeIdentity.create(), Clock.systemUTC());
    }

    private void load(String spiderId, long requests, int domains, int crawls) {
        Enqueuer enqueuer = new Enqueuer(redis, false);
        int domainsPerCrawl = domains / crawls;
        for (int crawl = 0; crawl < crawls; crawl++) {
            loadedCrawls.add(new CrawlRef(spiderId, APP, "c" + crawl).name());
        }
        List<EnqueueRequest> batch = new ArrayList<>(BATCH);
        for (long i = 0; i < requests; i++) {
            int domain = (int) (i % domains);
            int crawl = Math.min(crawls - 1, domain / domainsPerCrawl);
            String host = "d" + domain + ".bench";
            batch.add(EnqueueRequest.of(new QueueKey(spiderId, host), String.format(Locale.ROOT,
                    "{\"url\":\"https://%s/page/%d\",\"appid\":\"%s\",\"crawlid\":\"c%d\",\"spiderid\":\"%s\",\"priority\":%d,"
                            + "\"maxdepth\":1,\"domain_max_pages\":null,\"allowed_domains\":null,\"allow_regex\":null,"
                            + "\"deny_regex\":null,\"deny_extensions\":null,\"expires\":0,\"useragent\":null,\"cookie\":null,"
                            + "\"attrs\":null,\"ts\":1709288553.81}",
                    host, i, APP, crawl, spiderId, (int) (i % 3))));
            if (batch.size() == BATCH || i == requests - 1) {
                long refused = enqueuer.enqueueBatch(batch).stream().filter(outcome -> outcome != EnqueueOutcome.QUEUED).count();
                if (refused > 0) {
                    throw new IllegalStateException(refused + " requests were not queued");
                }
                batch.clear();
            }
        }
    }

    private Result measure(AnswerClock answers, String job, String key, int rounds) throws InterruptedException, TimeoutException {
        List<Double> millis = new ArrayList<>(rounds);
        int bytes = 0;
        for (int round = 0; round < rounds; round++) {
            String uuid = "bench-" + UUID.randomUUID();
            long written = System.nanoTime();
            JobKeys.post(redis, key, uuid);
            AnswerClock.Arrival arrival = answers.await(uuid, PATIENCE);
            millis.add((arrival.atNanos() - written) / 1e6);
            bytes = arrival.bytes();
        }
        return new Result(job, millis, bytes);
    }

    /**
     * Deletes the keys of the spiders and crawls the run made up (for a Redis that is not private to the benchmark); the
     * statistics the Redis monitor kept of its jobs stay, as those of any monitor do.
     */
    public void cleanUp() {
        SpiderKeys.delete(redis, spider);
        SpiderKeys.delete(redis, spider + "idle");
        if (!loadedCrawls.isEmpty()) {
            redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, loadedCrawls.toArray(String[]::new));
        }
    }
}
