package org.scrapycluster.standalone;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.common.settings.SettingsSchema;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * The workload of a training run (docs/operations.md "Warm start"): the whole cluster in this JVM, as {@code standalone}
 * runs it but on free ports with temporary data, crawls a synthetic site on loopback addresses, every page of it once a
 * crawl, its seeds fed through Kafka and the REST gateway, and answers info and stats requests on the way. What the JVM
 * records of it, the classes it loads and its methods' profiles, is what an ahead-of-time cache keeps for the runs
 * after it.
 *
 * <p>It takes nothing from the user's settings file or environment, which could point it at a real Kafka or Redis.
 */
final class TrainingCrawl implements AutoCloseable {

    /**
     * Fifty domains of 50 pages of about 15 KB, twenty links a page, each within its domain. Every page is a link of
     * a link of its domain's page 0 ({@code TrainingCrawlTest}), and the seed's own links are found at depth 1 whatever
     * the order of the fetches, so a crawl of {@link #MAX_DEPTH} fetches every page once.
     */
    static final SyntheticSite SITE = SyntheticSite.builder().seed(2024).domains(50).pagesPerDomain(50).pageBytes(15_000)
            .linksPerPage(20).crossDomainShare(0).build();
    static final int PAGES_PER_CRAWL = SITE.domains() * SITE.pagesPerDomain();
    /** The most the original's request schema allows. */
    static final int MAX_DEPTH = 3;
    static final String APPID = "train";
    /** Crawls run four at a time, as several apps' crawls share a cluster. */
    private static final int CRAWLS_AT_ONCE = 4;
    private static final Duration READY = Duration.ofSeconds(60);
    private static final Duration WATCH_EVERY = Duration.ofMillis(100);
    private static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("STANDALONE_KAFKA_PORT", "0"),
            Map.entry("STANDALONE_ZOOKEEPER_PORT", "0"),
            Map.entry("STANDALONE_REDIS_PORT", "0"),
            Map.entry("METRICS_PORT", "0"),
            Map.entry("FLASK_PORT", "0"),
            Map.entry("PUBLIC_IP", "127.0.0.1"),
            Map.entry("LOG_LEVEL", "WARNING"),
            Map.entry("QUEUE_HITS", "1000000"),
            Map.entry("QUEUE_WINDOW", "1"),
            Map.entry("QUEUE_MODERATED", "false"),
            Map.entry("CONCURRENT_REQUESTS", "256"));

    /** What a run crawled, and how long it took. */
    record Summary(long pages, Duration took) {
    }

    private final SettingsGroup settings;
    private final Json json;
    private final HttpClient http = HttpClient.newHttpClient();

    /** @param settings the cluster's settings: {@link #trainingSettings()} */
    TrainingCrawl(SettingsGroup settings) {
        this.settings = settings;
        this.json = new Json(JsonLimits.from(settings.service("kafka-monitor")));
    }

    /** The settings a training run starts its cluster with. */
    static SettingsGroup trainingSettings() {
        return SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(null, Map.of(), SETTINGS));
    }

    /**
     * Starts the cluster and the site, runs {@code crawls} crawls of the site (four at a time), and stops both, with
     * the cluster's temporary data; empty when {@code stopping} said to stop first (a signal to the process).
     *
     * @throws IllegalStateException when the cluster is not ready in time, a request is refused, or the crawls
     *                               take longer than {@code timeout}
     */
    Optional<Summary> run(List<ServiceFactory> factories, int crawls, Duration timeout, BooleanSupplier stopping)
            throws InterruptedException {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        try (TestOrigin origin = TestOrigin.builder().site(SITE).requestLogCapacity(0).start()) {
            Optional<StandaloneCluster> cluster = StandaloneCommand.startUnlessStopped(
                    () -> StandaloneCluster.start(settings, 1, factories), stopping);
            if (cluster.isEmpty()) {
                return Optional.empty();
            }
            try (StandaloneCluster running = cluster.get()) {
                return runCrawls(origin, running, crawls, started, deadline, stopping);
            }
        }
    }

    /** The crawls, once the cluster is ready: their summary, or empty when a stop was asked for first. */
    private Optional<Summary> runCrawls(TestOrigin origin, StandaloneCluster cluster, int crawls, long started, long deadline,
            BooleanSupplier stopping) throws InterruptedException {
        HealthReport ready = cluster.awaitReady(READY, stopping);
        if (stopping.getAsBoolean()) {
            return Optional.empty();
        }
        HealthReport live = cluster.liveness();
        if (!live.isUp()) {
            throw new IllegalStateException("a service could not start: " + live.downChecks());
        }
        if (!ready.isUp()) {
            throw new IllegalStateException("the cluster was not ready within " + READY.toSeconds() + " s: " + ready.toJson());
        }
        Settings kafkaMonitor = cluster.settings().service("kafka-monitor");
        Topics topics = Topics.from(kafkaMonitor);
        URI gateway = cluster.userUrls().get("rest");
        KafkaClients kafka = new KafkaClients(kafkaMonitor);
        try (Producer<String, String> producer = kafka.producer(new StringSerializer());
             Consumer<String, byte[]> results = kafka.bytesConsumer(null)) {
            List<TopicPartition> partitions = results.partitionsFor(topics.crawledFirehose()).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            results.assign(partitions);
            long before = produced(results, partitions);
            long target = before;
            long produced = before;
            for (int first = 1; first <= crawls; first += CRAWLS_AT_ONCE) {
                for (int crawl = first; crawl < first + CRAWLS_AT_ONCE && crawl <= crawls; crawl++) {
                    feed(origin, crawl, producer, topics.incoming(), gateway);
                    target += PAGES_PER_CRAWL;
                }
                produced = awaitResults(results, partitions, target, deadline, stopping);
                if (stopping.getAsBoolean()) {
                    return Optional.empty();
                }
            }
            return Optional.of(new Summary(produced - before, Duration.ofNanos(System.nanoTime() - started)));
        }
    }

    /** The seeds of crawl {@code crawl}, every other one through the gateway, then an info and a stats request. */
    private void feed(TestOrigin origin, int crawl, Producer<String, String> producer, String incoming, URI gateway)
            throws InterruptedException {
        String crawlid = APPID + "-" + crawl;
        for (int domain = 0; domain < SITE.domains(); domain++) {
            Map<String, Object> seed = new LinkedHashMap<>();
            seed.put("url", origin.pageUrl(new PageRef(domain, 0)));
            seed.put("appid", APPID);
            seed.put("crawlid", crawlid);
            seed.put("maxdepth", MAX_DEPTH);
            seed.put("priority", 50);
            if (domain % 2 == 0) {
                send(producer, incoming, json.writeString(seed));
            } else {
                post(gateway.resolve("/feed"), json.writeString(seed));
            }
        }
        send(producer, incoming, json.writeString(Map.of("action", "info", "appid", APPID, "crawlid", crawlid,
                "spiderid", "link", "uuid", crawlid + "-info")));
        send(producer, incoming, json.writeString(Map.of("stats", "all", "appid", APPID, "uuid", crawlid + "-stats")));
    }

    private static void send(Producer<String, String> producer, String topic, String value) throws InterruptedException {
        try {
            producer.send(new ProducerRecord<>(topic, value)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka did not take a training request: " + e.getCause(), e.getCause());
        }
    }

    private void post(URI feed, String body) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(feed).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the REST gateway did not answer " + feed + ": " + e, e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the REST gateway answered " + response.statusCode() + " to a training request: "
                    + response.body());
        }
    }

    /** Waits until {@code target} results have been produced in all, or a stop is asked for; the results produced by then. */
    private static long awaitResults(Consumer<String, byte[]> results, List<TopicPartition> partitions, long target, long deadline,
            BooleanSupplier stopping) throws InterruptedException {
        long count = produced(results, partitions);
        while (count < target && !stopping.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the training crawls did not end in time: " + count + " of " + target + " pages");
            }
            Thread.sleep(WATCH_EVERY.toMillis());
            count = produced(results, partitions);
        }
        return count;
    }

    /** Closes the client of the gateway and its thread. */
    @Override
    public void close() {
        http.close();
    }

    private static long produced(Consumer<String, byte[]> results, List<TopicPartition> partitions) {
        return results.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }
}
