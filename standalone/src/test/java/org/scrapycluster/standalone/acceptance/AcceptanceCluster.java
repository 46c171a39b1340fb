package org.scrapycluster.standalone.acceptance;

import java.net.URI;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.common.settings.SettingsSchema;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.node.CrawlerFactory;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.OutboundAnswers;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.standalone.StandaloneCluster;

/**
 * One acceptance test's cluster on the shared embedded stack: the services built by their
 * factories and run by {@link StandaloneCluster}, as {@code scrapy-cluster standalone} runs them,
 * with a Redis database, topic prefix, consumer group and ZooKeeper node of their own, so that the
 * tests of this JVM never see each other's jobs, queues, answers or domain config. Requests go to
 * {@code <prefix>.incoming} as a client sends them; the outbound and results topics are read from
 * their beginning. The test's own clients reach Kafka as the services do: a test that sets {@code KAFKA_HOSTS} and
 * {@code KAFKA_CLIENT_PROPERTIES} runs the cluster on a broker of its own.
 */
final class AcceptanceCluster implements AutoCloseable {

    /** The Redis databases handed out in turn (0 is left to whoever else uses the server). */
    private static final int DATABASES = 15;
    private static final AtomicInteger NEXT_DB = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEND_TIMEOUT_SECONDS = 30;

    private final String prefix = unique("acc");
    private final Map<String, String> values = new LinkedHashMap<>();
    private final RedisConnection redis;
    private StandaloneCluster cluster;
    private Producer<String, String> producer;
    private KafkaClients readers;
    private OutboundAnswers outbound;
    private OutboundAnswers results;

    /** Settings pointed at {@code stack} and a flushed Redis database; nothing runs until {@link #start}. */
    AcceptanceCluster(EmbeddedStack stack) {
        int db = 1 + NEXT_DB.getAndIncrement() % DATABASES;
        values.put("KAFKA_HOSTS", stack.kafkaBootstrap());
        values.put("ZOOKEEPER_HOSTS", stack.zookeeperConnect());
        values.put("REDIS_HOST", "127.0.0.1");
        values.put("REDIS_PORT", Integer.toString(stack.redisPort()));
        values.put("REDIS_DB", Integer.toString(db));
        values.put("KAFKA_TOPIC_PREFIX", prefix);
        values.put("KAFKA_INCOMING_TOPIC", Topics.withPrefix(prefix).incoming());
        values.put("KAFKA_PRODUCER_TOPIC", Topics.withPrefix(prefix).incoming());
        values.put("KAFKA_GROUP", prefix + "-group");
        values.put("ZOOKEEPER_ID", prefix);
        values.put("METRICS_PORT", "-1");
        values.put("STATS_DUMP", "0");
        values.put("LOG_LEVEL", "WARN");
        values.put("SC_LOG_LEVEL", "WARN");
        values.put("PUBLIC_IP", "127.0.0.1");
        values.put("CRAWL_COMPLETE_QUIET_SECONDS", "1");
        this.redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()).withDb(db));
        redis.sync().flushdb();
    }

    /** A name no other test uses, free of ':' and legal in a topic name. */
    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** The epoch second now, for checking {@code server_time}. */
    static long now() {
        return Clock.systemUTC().instant().getEpochSecond();
    }

    /** Sets a setting, as {@code --set NAME=VALUE} does, for every service that declares it; before {@link #start}. */
    AcceptanceCluster set(String name, Object value) {
        if (cluster != null) {
            throw new IllegalStateException("the cluster is already running");
        }
        values.put(name, String.valueOf(value));
        return this;
    }

    /** Sets the crawlers' default throttle: {@code hits} per {@code windowSeconds} per domain, spaced out when {@code moderated}. */
    AcceptanceCluster throttle(int hits, int windowSeconds, boolean moderated) {
        return set("QUEUE_HITS", hits).set("QUEUE_WINDOW", windowSeconds).set("QUEUE_MODERATED", moderated);
    }

    /** Starts a Kafka monitor, a Redis monitor and {@code crawlers} crawler nodes. */
    AcceptanceCluster startWithCrawlers(int crawlers) {
        return start(crawlers, new KafkaMonitorFactory(), new RedisMonitorFactory(), new CrawlerFactory());
    }

    /** Starts the services {@code factories} build, the crawler {@code crawlers} times. */
    AcceptanceCluster start(int crawlers, ServiceFactory... factories) {
        SettingsGroup settings = SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(null, Map.of(), values));
        Topics topics = Topics.withPrefix(prefix);
        KafkaClients clients = new KafkaClients(settings.service("kafka-monitor"));
        try (Admin admin = clients.admin()) {
            admin.createTopics(List.of(new NewTopic(topics.incoming(), 1, (short) 1))).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create " + topics.incoming(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        readers = clients;
        outbound = reader(topics.outboundFirehose());
        results = reader(topics.crawledFirehose());
        producer = clients.producer(new StringSerializer());
        cluster = StandaloneCluster.start(settings, crawlers, List.of(factories));
        return this;
    }

    /** Sends a request (field, value, field, value, ...) as JSON to the incoming topic, as a client does. */
    void send(Object... fieldsAndValues) {
        sendAll(List.of(request(fieldsAndValues)));
    }

    /** A request made of {@code fieldsAndValues} (field, value, field, value, ...), in that order. */
    static Map<String, Object> request(Object... fieldsAndValues) {
        Map<String, Object> request = new LinkedHashMap<>();
        for (int i = 0; i + 1 < fieldsAndValues.length; i += 2) {
            request.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return request;
    }

    /** Feeds every page of {@code origin}'s site through Kafka as a seed of one crawl (maxdepth 0). */
    void feedEveryPage(TestOrigin origin, String appid, String crawlid) {
        List<Map<String, Object>> seeds = new ArrayList<>();
        for (PageRef page : origin.site().pages()) {
            seeds.add(request("url", origin.pageUrl(page), "appid", appid, "crawlid", crawlid));
        }
        sendAll(seeds);
    }

    /** Sends {@code requests} as JSON to the incoming topic, in order, and waits until Kafka has them all. */
    void sendAll(List<Map<String, Object>> requests) {
        String topic = Topics.withPrefix(prefix).incoming();
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>(requests.size());
            for (Map<String, Object> request : requests) {
                sent.add(producer.send(new ProducerRecord<>(topic, JSON.writeValueAsString(request))));
            }
            for (Future<RecordMetadata> future : sent) {
                future.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (JsonProcessingException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot send the requests to " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code topic}, read from its beginning by a client that reaches Kafka as the services do; once started. */
    OutboundAnswers reader(String topic) {
        return new OutboundAnswers(readers.consumerProperties(null), topic);
    }

    /** This cluster's topic names. */
    Topics topics() {
        return Topics.withPrefix(prefix);
    }

    /** {@code <prefix>.outbound_firehose}, read from its beginning. */
    OutboundAnswers outbound() {
        return outbound;
    }

    /** {@code <prefix>.crawled_firehose}, read from its beginning. */
    OutboundAnswers results() {
        return results;
    }

    /** Where users reach {@code instance} ({@code rest}), once started. */
    URI userUrl(String instance) {
        URI url = cluster.userUrls().get(instance);
        if (url == null) {
            throw new IllegalStateException(instance + " has no address: is it running?");
        }
        return url;
    }

    /** The cluster's metrics and health endpoint; METRICS_PORT must have been set to turn it on. */
    InetSocketAddress metricsAddress() {
        return cluster.metricsAddress().orElseThrow(() -> new IllegalStateException("no metrics endpoint: set METRICS_PORT"));
    }

    /** A connection to this cluster's Redis database. */
    RedisConnection redis() {
        return redis;
    }

    /** The ZooKeeper node holding this cluster's domain config. */
    String zookeeperNode() {
        return SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(null, Map.of(), values)).service("redis-monitor")
                .getString("ZOOKEEPER_ASSIGN_PATH") + prefix;
    }

    /** Stops the services and the readers, and empties the database for the next test that draws it. */
    @Override
    public void close() {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            for (AutoCloseable part : new AutoCloseable[] {producer, outbound, results}) {
                close(part);
            }
            redis.sync().flushdb();
            redis.close();
        }
    }

    private static void close(AutoCloseable part) {
        if (part == null) {
            return;
        }
        try {
            part.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close " + part, e);
        }
    }
}
