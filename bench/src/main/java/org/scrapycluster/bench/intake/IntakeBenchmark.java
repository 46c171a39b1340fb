package org.scrapycluster.bench.intake;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.bench.SpiderKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.intake.BatchListener;
import org.scrapycluster.kafkamonitor.intake.BatchSummary;
import org.scrapycluster.kafkamonitor.intake.KafkaMonitor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures how many valid crawl requests per second one Kafka monitor files from Kafka into Redis
 * queues: {@code requests} crawl requests over {@code domains} registered domains are first loaded
 * into a fresh incoming topic, then a monitor is started on it, and the time from its first batch's
 * poll to the Redis confirmation of the last request is measured. Everything runs under a fresh
 * topic prefix, group and spider id, whose Redis keys are deleted at the end.
 */
public final class IntakeBenchmark {

    private static final Logger LOG = LoggerFactory.getLogger(IntakeBenchmark.class);
    private static final Duration FINISH_TIMEOUT = Duration.ofMinutes(30);
    private static final int APPS_CRAWLS = 10;

    private final Settings settings;
    private final int requests;
    private final int domains;
    private final String spider = "bench" + UUID.randomUUID().toString().substring(0, 8);

    /**
     * @param settings the monitor's settings (Kafka and Redis addresses); the topic prefix, incoming
     *                 topic, group and metrics endpoint are replaced by the benchmark's own
     */
    public IntakeBenchmark(Settings settings, int requests, int domains) {
        if (requests < 1 || domains < 1) {
            throw new IllegalArgumentException("the benchmark needs at least one request and one domain");
        }
        String prefix = spider;
        this.settings = settings.withLauncherValues(Map.of(
                "KAFKA_TOPIC_PREFIX", prefix,
                "KAFKA_INCOMING_TOPIC", prefix + ".incoming",
                "KAFKA_GROUP", prefix + "-group",
                "METRICS_PORT", -1,
                "STATS_DUMP", 0));
        this.requests = requests;
        this.domains = domains;
    }

    /**
     * What was measured.
     *
     * @param requests    crawl requests filed
     * @param preload     time to load them into Kafka
     * @param intake      time from the first batch's poll to the last request's write
     * @param batches     batches the monitor took
     * @param queued      members found in the benchmark's queues afterwards
     */
    public record Result(int requests, Duration preload, Duration intake, long batches, long queued) {

        public double perSecond() {
            return requests / (intake.toNanos() / 1e9);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%,d crawl requests from Kafka into Redis queues in %.2f s: %,.0f requests/s"
                            + " (first record consumed to last queue write; %,d batches, %,d members queued; preloading took %.2f s)",
                    requests, intake.toNanos() / 1e9, perSecond(), batches, queued, preload.toNanos() / 1e9);
        }
    }

    /** Loads the topic, runs the monitor until every request is written, checks the queues and cleans up, whatever happens. */
    public Result run() throws InterruptedException {
        try {
            return measure();
        } finally {
            cleanUp();
        }
    }

    private Result measure() throws InterruptedException {
        Duration preload = preload();
        Progress progress = new Progress(requests);
        Duration intake;
        try (ServiceHost host = ServiceHost.start(settings)) {
            host.run(new KafkaMonitor(host.context(settings), progress));
            if (!progress.done.await(FINISH_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the monitor did not file " + requests + " requests within " + FINISH_TIMEOUT
                        + "; it filed " + progress.accepted.get());
            }
            intake = Duration.ofNanos(progress.lastWritten - progress.firstPolled);
        }
        if (progress.rejected.get() > 0) {
            throw new IllegalStateException(progress.rejected.get() + " benchmark requests were rejected; see the log");
        }
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.from(settings))) {
            long queued = 0;
            for (String queue : RedisKeys.scan(redis, Keyspace.QUEUE.glob(spider))) {
                queued += redis.sync().zcard(queue);
            }
            return new Result(requests, preload, intake, progress.batches.get(), queued);
        }
    }

    private Duration preload() {
        Properties properties = new KafkaClients(settings).producerProperties();
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(64L << 20));
        String topic = settings.getString("KAFKA_INCOMING_TOPIC");
        long started = System.nanoTime();
        try (Producer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < requests; i++) {
                producer.send(new ProducerRecord<>(topic, request(i)));
            }
            producer.flush();
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** A typical crawl request: its own URL, one of the domains, one of ten crawls, priorities 1-100. */
    private byte[] request(int i) {
        return String.format(Locale.ROOT, "{\"url\":\"https://www.bench%d.com/products/%d?page=2\",\"appid\":\"benchapp\","
                        + "\"crawlid\":\"crawl%d\",\"spiderid\":\"%s\",\"priority\":%d,\"maxdepth\":2,"
                        + "\"allowed_domains\":[\"bench%d.com\"],\"allow_regex\":[\"^https://www\\\\.bench%d\\\\.com/products\"]}",
                i % domains, i, i % APPS_CRAWLS, spider, 1 + i % 100, i % domains, i % domains).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Removes what the run left in the user's servers: its queues and crawls in Redis, its topic and group in Kafka; what
     * cannot be removed is said, and the rest removed all the same, without hiding what ended the run.
     */
    private void cleanUp() throws InterruptedException {
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.from(settings))) {
            SpiderKeys.delete(redis, spider);
            for (int crawl = 0; crawl < APPS_CRAWLS; crawl++) {
                redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, new CrawlRef(spider, "benchapp", "crawl" + crawl).name());
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not remove the benchmark's keys ({}*): {}", spider, e.toString());
        }
        try (Admin admin = new KafkaClients(settings).admin()) {
            String topic = settings.getString("KAFKA_INCOMING_TOPIC");
            String group = settings.getString("KAFKA_GROUP");
            for (var deletion : List.of(admin.deleteTopics(List.of(topic)).all(), admin.deleteConsumerGroups(List.of(group)).all())) {
                try {
                    deletion.get(1, TimeUnit.MINUTES);
                } catch (ExecutionException | TimeoutException e) {
                    LOG.warn("Could not delete the benchmark's topic {} or group {}: {}", topic, group, e.toString());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not reach Kafka to delete the benchmark's topic and group: {}", e.toString());
        }
    }

    /** Follows the monitor's batches until every request is written. */
    private static final class Progress implements BatchListener {

        private final int expected;
        private final AtomicLong accepted = new AtomicLong();
        private final AtomicLong rejected = new AtomicLong();
        private final AtomicLong batches = new AtomicLong();
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile long firstPolled;
        private volatile long lastWritten;

        Progress(int expected) {
            this.expected = expected;
        }

        @Override
        public void written(BatchSummary batch) {
            long now = System.nanoTime();
            if (batches.getAndIncrement() == 0) {
                firstPolled = batch.polledNanos();
            }
            rejected.addAndGet(batch.rejected());
            if (accepted.addAndGet(batch.accepted()) + rejected.get() >= expected) {
                lastWritten = now;
                done.countDown();
            }
        }
    }
}
