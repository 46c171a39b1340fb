package org.scrapycluster.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.bench.jobs.AnswerClock;
import org.scrapycluster.bench.jobs.RedisMonitorBenchmark.Result;

/**
 * Measures what a client waits for an answer: it runs a Kafka monitor and a Redis monitor in this
 * process (as {@code standalone} runs them), sends requests to the incoming topic one at a time,
 * as JSON text from a producer that sends at once, and times each from the send to its answer
 * arriving on the outbound topic — Kafka, the Kafka monitor's intake and commit, the job key and
 * its signal in Redis, the Redis monitor's job, and Kafka again.
 */
final class RoundTripBenchmark {

    private static final Duration PATIENCE = Duration.ofMinutes(1);
    private static final String APP = "benchapp";

    private final SettingsGroup settings;

    /** @param settings the services' settings, pointed at the Kafka, Redis and ZooKeeper to use, with a topic prefix of the run's own */
    RoundTripBenchmark(SettingsGroup settings) {
        this.settings = settings;
    }

    /** One kind of request: a name for the report and the request's JSON with {@code %s} for its uuid. */
    record Request(String name, String json) {
    }

    /** Sends {@code warmup} unmeasured rounds of each request, then {@code rounds} measured ones, each alone. */
    List<Result> run(List<Request> requests, int warmup, int rounds) throws InterruptedException, TimeoutException {
        KafkaClients clients = new KafkaClients(settings.service("kafka-monitor"));
        Topics topics = Topics.from(settings.service("kafka-monitor"));
        List<Result> results = new ArrayList<>();
        try (Admin admin = clients.admin()) {
            BenchmarkTopics.create(admin, topics.incoming());
            try {
                runServices(clients, topics, requests, warmup, rounds, results);
            } finally {
                admin.deleteTopics(List.of(topics.incoming()));
            }
        }
        return results;
    }

    private void runServices(KafkaClients clients, Topics topics, List<Request> requests, int warmup, int rounds, List<Result> results)
            throws InterruptedException, TimeoutException {
        try (ServiceHost host = ServiceHost.start(settings.service("standalone"));
             AnswerClock answers = new AnswerClock(KafkaClients.bootstrapServers(settings.service("redis-monitor")),
                     topics.outboundFirehose());
             Producer<String, String> producer = producer(clients)) {
            for (ServiceFactory factory : List.of(new KafkaMonitorFactory(), new RedisMonitorFactory())) {
                host.run(factory.create(host.context(settings.service(factory.name()))));
            }
            for (Request request : requests) {
                measure(producer, answers, topics.incoming(), request, warmup);
                results.add(new Result(request.name(), measure(producer, answers, topics.incoming(), request, rounds), 0));
            }
        }
    }

    private static List<Double> measure(Producer<String, String> producer, AnswerClock answers, String topic, Request request,
            int rounds) throws InterruptedException, TimeoutException {
        List<Double> millis = new ArrayList<>(rounds);
        for (int round = 0; round < rounds; round++) {
            String uuid = "rt-" + UUID.randomUUID().toString().substring(0, 18);
            long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, request.json().formatted(uuid, APP)));
            AnswerClock.Arrival arrival = answers.await(uuid, PATIENCE);
            millis.add((arrival.atNanos() - sent) / 1e6);
        }
        return millis;
    }

    /** A client's producer that sends each request at once rather than lingering for company. */
    private static Producer<String, String> producer(KafkaClients clients) {
        Properties properties = clients.producerProperties();
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }

    /** The requests measured: info about a crawl, and stats of every kind. */
    static List<Request> requests() {
        return List.of(
                new Request("info", "{\"uuid\":\"%s\",\"appid\":\"%s\",\"action\":\"info\",\"spiderid\":\"link\",\"crawlid\":\"c1\"}"),
                new Request("stats all", "{\"uuid\":\"%s\",\"appid\":\"%s\",\"stats\":\"all\"}"));
    }

    /** Settings of the run's own: its topics, no metrics endpoint, no stats dumps. */
    static Map<String, Object> runValues(String prefix) {
        return Map.of("KAFKA_TOPIC_PREFIX", prefix, "KAFKA_INCOMING_TOPIC", prefix + ".incoming", "KAFKA_GROUP", prefix + "-group",
                "METRICS_PORT", -1, "STATS_DUMP", 0);
    }
}
