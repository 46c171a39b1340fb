package org.scrapycluster.crawler.node;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigException;
import org.scrapycluster.common.zookeeper.ZooKeeperConfigStore;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.embedded.EmbeddedStack;

import com.fasterxml.jackson.databind.JsonNode;

import io.lettuce.core.ScriptOutputType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * What a crawler test needs around its nodes: a Redis database of its own (flushed at start; tests of this
 * JVM run one after another and never share one), a topic prefix and a ZooKeeper node of its own, settings
 * pointing at the shared stack, seeds put into Redis exactly as the Kafka monitor puts them (a feed item
 * through {@link Enqueuer}, the seed's fingerprint registered in the crawl's dupefilter), and a reader of
 * the results on {@code <prefix>.crawled_firehose}.
 */
final class CrawlerTestBed implements AutoCloseable {

    private static final AtomicInteger NEXT_DB = new AtomicInteger();
    private static final int DATABASES = 15;
    private static final String NOTHING_QUEUED_OR_LEASED = """
            for _, pattern in ipairs(ARGV) do
              for _, key in ipairs(redis.call('KEYS', pattern)) do
                if redis.call('ZCARD', key) > 0 then return 0 end
              end
            end
            return 1
            """;

    private final EmbeddedStack stack;
    private final String prefix;
    private final String zookeeperId;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final RedisConnection redis;
    private final Consumer<String, byte[]> results;
    private final List<JsonNode> received = new ArrayList<>();
    private final List<CrawlerNode> nodes = new ArrayList<>();
    private final List<PrometheusMeterRegistry> registries = new ArrayList<>();
    private final List<HealthRegistry> healths = new ArrayList<>();
    private final Json json = new Json(new JsonLimits(64, 100_000_000, 200_000_000));
    private Clock clock = Clock.systemUTC();

    CrawlerTestBed(EmbeddedStack stack) {
        this(stack, stack.redisPort(), stack.kafkaBootstrap());
    }

    /**
     * A bed whose nodes use the Redis on {@code redisPort} of 127.0.0.1 and the Kafka at {@code kafkaBootstrap}
     * instead of the shared stack's, for tests that stop them.
     */
    CrawlerTestBed(EmbeddedStack stack, int redisPort, String kafkaBootstrap) {
        this.stack = stack;
        int db = 1 + NEXT_DB.getAndIncrement() % DATABASES;
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        this.prefix = "t" + id;
        this.zookeeperId = "crawler-test-" + id;
        this.redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", redisPort).withDb(db));
        redis.sync().flushdb();
        settings.put("REDIS_HOST", "127.0.0.1");
        settings.put("REDIS_PORT", Integer.toString(redisPort));
        settings.put("REDIS_DB", Integer.toString(db));
        settings.put("KAFKA_HOSTS", kafkaBootstrap);
        settings.put("KAFKA_TOPIC_PREFIX", prefix);
        settings.put("ZOOKEEPER_HOSTS", stack.zookeeperConnect());
        settings.put("ZOOKEEPER_ID", zookeeperId);
        settings.put("PUBLIC_IP", "127.0.0.1");
        settings.put("QUEUE_HITS", "1000");
        settings.put("QUEUE_WINDOW", "1");
        settings.put("QUEUE_MODERATED", "false");
        settings.put("METRICS_PORT", "-1");
        settings.put("LEASE_SECONDS", "30");
        settings.put("LEASE_REAP_INTERVAL", "1");
        settings.put("DOWNLOAD_TIMEOUT", "5");
        settings.put("DOWNLOAD_FORBID_PRIVATE_ADDRESSES", "false"); // the test origins live on loopback
        settings.put("SC_LOG_LEVEL", "WARN");
        KafkaClients clients = new KafkaClients(settings());
        try (Admin admin = clients.admin()) {
            admin.createTopics(List.of(new NewTopic(topics().crawledFirehose(), 1, (short) 1))).all().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot create the results topic", e);
        }
        Properties consumer = new Properties();
        consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // a fetch waits this long at most on the broker, which answers nothing else of the connection meanwhile (the end offsets)
        consumer.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
        this.results = new KafkaConsumer<>(consumer, new StringDeserializer(), new ByteArrayDeserializer());
        results.assign(List.of(new TopicPartition(topics().crawledFirehose(), 0)));
        results.seekToBeginning(results.assignment());
    }

    /** Sets a crawler setting for the nodes started from now on. */
    CrawlerTestBed set(String name, Object value) {
        settings.put(name, String.valueOf(value));
        return this;
    }

    /** Gives the nodes started from now on {@code wallClock} as their wall clock. */
    CrawlerTestBed clock(Clock wallClock) {
        this.clock = wallClock;
        return this;
    }

    Settings settings() {
        return Settings.load("crawler", new SettingsSources(null, Map.of(), settings));
    }

    Map<String, String> settingValues() {
        return Map.copyOf(settings);
    }

    Topics topics() {
        return Topics.withPrefix(prefix);
    }

    RedisConnection redis() {
        return redis;
    }

    /** Starts a node with the current settings, and waits until it has connected to Redis; closed with the bed. */
    CrawlerNode startNode() {
        CrawlerNode node = startNodeWithoutWaiting();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> health().checks().get("redis").isUp());
        return node;
    }

    /** Starts a node with the current settings, which returns before the node has connected to Redis; closed with the bed. */
    CrawlerNode startNodeWithoutWaiting() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HealthRegistry health = new HealthRegistry();
        CrawlerNode node = new CrawlerNode(new ServiceContext(settings(), registry, registry, health,
                NodeIdentity.create(), clock));
        node.start();
        nodes.add(node);
        registries.add(registry);
        healths.add(health);
        return node;
    }

    /** The health checks of the node started last. */
    HealthReport health() {
        return healths.getLast().check();
    }

    /** The liveness checks of the node started last. */
    HealthReport liveness() {
        return healths.getLast().checkLive();
    }

    /** The total of the counters called {@code name} (all tags) over every node started. */
    double counted(String name) {
        return registries.stream().flatMap(registry -> registry.find(name).counters().stream()).mapToDouble(Counter::count).sum();
    }

    /** The total of the counters called {@code name} with {@code tag} set to {@code value} over every node started. */
    double counted(String name, String tag, String value) {
        return registries.stream().flatMap(registry -> registry.find(name).tag(tag, value).counters().stream()).mapToDouble(Counter::count).sum();
    }

    /** The value of the gauge called {@code name} of the node started last. */
    double gauge(String name) {
        return registries.getLast().get(name).gauge().value();
    }

    /** The value of the gauge called {@code name} with {@code tag} set to {@code value} of the node started last. */
    double gauge(String name, String tag, String value) {
        return registries.getLast().get(name).tag(tag, value).gauge().value();
    }

    /** A feed item as the Kafka monitor files it: every schema field with its default, then {@code ts}. */
    static Map<String, Object> feedItem(String url, String crawlid) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("url", url);
        item.put("appid", "testapp");
        item.put("crawlid", crawlid);
        item.put("priority", 1);
        item.put("spiderid", "link");
        item.put("maxdepth", 0);
        item.put("domain_max_pages", null);
        item.put("allowed_domains", null);
        item.put("allow_regex", null);
        item.put("deny_regex", null);
        item.put("deny_extensions", null);
        item.put("expires", 0);
        item.put("useragent", null);
        item.put("cookie", null);
        item.put("attrs", null);
        item.put("ts", new BigDecimal("1709288553.81"));
        return item;
    }

    /** Files a seed into Redis as the Kafka monitor does. */
    void seed(Map<String, Object> item) {
        String url = (String) item.get("url");
        String spider = (String) item.get("spiderid");
        EnqueueRequest request = EnqueueRequest.of(new QueueKey(spider, RegisteredDomain.of(url)), json.writeString(item))
                .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(spider, (String) item.get("crawlid")),
                        RequestFingerprint.of(url), Duration.ofSeconds(600)))
                .withTimeoutKey();
        EnqueueOutcome outcome = new Enqueuer(redis, false).enqueue(request);
        if (outcome != EnqueueOutcome.QUEUED) {
            throw new IllegalStateException("seed not queued: " + outcome);
        }
    }

    /** The results received so far (reads what has arrived). */
    synchronized List<JsonNode> results() {
        for (ConsumerRecord<String, byte[]> record : results.poll(Duration.ofMillis(100))) {
            try {
                received.add(json.readTree(record.value()));
            } catch (JsonInputException e) {
                throw new AssertionError("a result is not JSON: " + e.getMessage(), e);
            }
        }
        return List.copyOf(received);
    }

    /**
     * Waits for at least {@code count} results, then for any extra one, and returns them all. Once nothing is queued or
     * leased in this bed's database, no result is still to come (a lease is acknowledged only after Kafka took its page
     * and Redis the page's requests): the results topic is read to its end then. While something stays queued or leased
     * (a spider that walks on, a node that holds its request), extra results are awaited for 1.5 s.
     */
    List<JsonNode> awaitResults(int count) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> results().size() >= count);
        long quietUntil = System.nanoTime() + Duration.ofMillis(1500).toNanos();
        while (System.nanoTime() - quietUntil < 0) {
            if (nothingQueuedOrLeased()) {
                return resultsToTheEnd();
            }
            results();
        }
        return results();
    }

    /**
     * Whether every queue and every spider's leases in this bed's database are empty, read in one script: a request
     * goes from a queue to the leases (a hand-out) and from the leases to a queue (a hand-back, a retry filed before its
     * lease is acknowledged), so that two reads, one after the other, could both miss it.
     */
    private boolean nothingQueuedOrLeased() {
        Long empty = redis.sync().eval(NOTHING_QUEUED_OR_LEASED, ScriptOutputType.INTEGER, new String[0], "*:queue", "*:leases");
        return empty == 1;
    }

    /** Every result on the results topic up to its end as it is now. */
    private synchronized List<JsonNode> resultsToTheEnd() {
        Map<TopicPartition, Long> end = results.endOffsets(results.assignment());
        long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (end.entrySet().stream().anyMatch(partition -> results.position(partition.getKey()) < partition.getValue())) {
            if (System.nanoTime() - giveUp > 0) {
                throw new AssertionError("the results topic was not read to its end " + end + " in 60 s");
            }
            results();
        }
        return List.copyOf(received);
    }

    /** Writes the ZooKeeper domain config of this bed's nodes. */
    void zookeeperConfig(String yaml) {
        String path = "/scrapy-cluster/crawler/" + zookeeperId;
        try (ZooKeeperConfigStore store = ZooKeeperConfigStore.open(ZooKeeperConnection.to(stack.zookeeperConnect()), path)) {
            store.replaceText(yaml);
        } catch (ZooKeeperConfigException e) {
            throw new IllegalStateException("cannot write the ZooKeeper config", e);
        }
    }

    /** The page URLs of the results, as published. */
    static List<String> urls(List<JsonNode> results) {
        return results.stream().map(result -> result.get("url").asText()).toList();
    }

    @Override
    public void close() {
        nodes.forEach(CrawlerNode::close);
        results.close();
        redis.close();
    }
}
