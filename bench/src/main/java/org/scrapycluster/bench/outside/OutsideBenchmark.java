package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.bench.ThreadCpu.ThreadTime;
import org.scrapycluster.common.kafka.BootstrapServers;
import org.scrapycluster.common.kafka.TopicPartitions;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.net.Port;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Crawls into a cluster that runs already, watched from outside it as docs/benchmarks.md ("How it is measured") describes:
 * a crawl sends {@value #CRAWL_IDS} crawl ids' requests for page 0 of every domain of {@link #SITE} to the incoming topic
 * with a plain producer, follows the end offsets of the crawled firehose every second until they stand still for the
 * quiet period ({@link QuietEnd}), and reads the named processes' CPU time, and the first one's by thread, before its
 * requests and after its quiet end; their CPU time also at the first look that found no more results, so that the crawl's
 * cost shows apart from the idle seconds that end it.
 * The pages are how far the end offsets moved; their rate comes from the records' own timestamps ({@link ResultTimes}),
 * read back once the CPU time is taken (reading them costs the broker's process). Crawls run one after another, each
 * with crawl ids of its own.
 */
final class OutsideBenchmark {

    /** The share of a page's links to other domains. */
    static final double CROSS_DOMAIN_SHARE = 0.1;
    /** Twenty domains of 500 pages of about 15,000 bytes with 20 links, a tenth of them to other domains. */
    static final SyntheticSite SITE = SyntheticSite.builder().seed(2024).domains(20).pagesPerDomain(500).pageBytes(15_000)
            .linksPerPage(20).crossDomainShare(CROSS_DOMAIN_SHARE).build();
    /** The test domain whose address is 127.0.0.11: the site's domains are 127.0.0.11 to 127.0.0.30. */
    private static final int FIRST_ADDRESS = 9;
    static final int CRAWL_IDS = 2;
    private static final Duration WATCH_EVERY = Duration.ofSeconds(1);
    private static final Duration TOPIC_WAIT = Duration.ofSeconds(10);
    private static final Duration READ_BACK = Duration.ofSeconds(60);

    /**
     * What to run.
     *
     * @param kafka  the cluster's Kafka bootstrap servers
     * @param topics the cluster's topics
     * @param port   the port of the site's domains, 0 for a free one
     * @param crawls crawls, one after another
     * @param quiet  how long the crawled firehose's end offsets stand still before a crawl is over
     */
    record Plan(String kafka, Topics topics, int port, int crawls, Duration quiet) {

        Plan {
            BootstrapServers.whyNotList(kafka).ifPresent(problem -> {
                throw new IllegalArgumentException("--kafka: " + problem);
            });
            if (!Port.isListenable(port)) {
                throw new IllegalArgumentException("port must be from 0 to " + Port.MAX + ", was " + port);
            }
            if (crawls < 1) {
                throw new IllegalArgumentException("crawls must be at least 1");
            }
            if (quiet.compareTo(WATCH_EVERY) < 0) {
                throw new IllegalArgumentException("the quiet period must be at least " + WATCH_EVERY.toSeconds() + " s");
            }
        }
    }

    private final Plan plan;
    private final NamedProcesses processes;
    private final String runId = "outside-" + UUID.randomUUID().toString().substring(0, 8);

    OutsideBenchmark(Plan plan, NamedProcesses processes) {
        this.plan = plan;
        this.processes = processes;
    }

    /** Serves {@link #SITE} on 127.0.0.11 to 127.0.0.30 at the plan's port, for {@link #run}. */
    TestOrigin serve() {
        return TestOrigin.builder().site(SITE).firstAddress(FIRST_ADDRESS).port(plan.port()).requestLogCapacity(0).start();
    }

    /**
     * Runs the crawls of the site {@code origin} serves ({@link #serve()}); {@code progress} hears of each as it ends.
     *
     * @throws IllegalStateException when a topic is missing, Kafka does not take a request, or a crawl brings no page
     */
    List<CrawlFigures> run(TestOrigin origin, Consumer<CrawlFigures> progress) throws InterruptedException {
        List<String> seeds = IntStream.range(0, SITE.domains()).mapToObj(domain -> origin.pageUrl(new PageRef(domain, 0))).toList();
        try (KafkaProducer<String, String> requests = new KafkaProducer<>(common(), new StringSerializer(), new StringSerializer());
             KafkaConsumer<byte[], byte[]> results = resultReader()) {
            partitionsOf(results, plan.topics().incoming()); // a producer would wait for a topic that is not there
            List<TopicPartition> partitions = partitionsOf(results, plan.topics().crawledFirehose());
            // assigned from the start, as ResultTimes leaves them: Kafka warns of end offsets asked for a partition not assigned
            results.assign(partitions);
            results.pause(partitions);
            List<CrawlFigures> crawls = new ArrayList<>();
            for (int number = 1; number <= plan.crawls(); number++) {
                CrawlFigures crawl = crawl(number, seeds, requests, results, partitions);
                crawls.add(crawl);
                progress.accept(crawl);
            }
            return crawls;
        }
    }

    private List<String> crawlids(int number) {
        return IntStream.rangeClosed(1, CRAWL_IDS).mapToObj(crawlid -> runId + "-" + number + "-" + crawlid).toList();
    }

    private CrawlFigures crawl(int number, List<String> seeds, KafkaProducer<String, String> producer,
            KafkaConsumer<byte[], byte[]> results, List<TopicPartition> partitions) throws InterruptedException {
        List<String> requests = CrawlRequests.of(seeds, crawlids(number));
        Map<TopicPartition, Long> from = results.endOffsets(partitions);
        Map<String, Duration> cpuBefore = processes.cpu();
        Map<Long, ThreadTime> threadsBefore = processes.cpuByThread();
        send(producer, requests);
        QuietEnd quietEnd = new QuietEnd(plan.quiet(), InstantSource.system(), sum(from));
        Map<TopicPartition, Long> to;
        Map<String, Duration> cpuToResults = Map.of();
        boolean over;
        do {
            Thread.sleep(WATCH_EVERY);
            to = results.endOffsets(partitions);
            over = quietEnd.isReached(sum(to));
            if (quietEnd.stillLooks() == 1) {
                cpuToResults = processes.cpuSince(cpuBefore);
            }
        } while (!over);
        Map<String, Duration> cpu = processes.cpuSince(cpuBefore);
        Map<String, Duration> threads = ThreadCpu.byGroup(threadsBefore, processes.cpuByThread());
        long pages = sum(to) - sum(from);
        if (pages == 0) {
            throw new IllegalStateException("crawl " + number + ": no page on " + plan.topics().crawledFirehose() + " within "
                    + plan.quiet().toSeconds() + " s of its requests (may the cluster fetch " + seeds.getFirst() + "?)");
        }
        return new CrawlFigures(number, pages, ResultTimes.span(results, from, to, READ_BACK), cpu, cpuToResults, threads);
    }

    private void send(KafkaProducer<String, String> producer, List<String> requests) throws InterruptedException {
        List<Future<RecordMetadata>> sent = requests.stream()
                .map(request -> producer.send(new ProducerRecord<>(plan.topics().incoming(), request))).toList();
        for (Future<RecordMetadata> request : sent) {
            try {
                request.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not take a crawl request: " + e.getCause(), e.getCause());
            }
        }
    }

    /** The partitions of {@code topic}, which the cluster made. */
    private List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = TopicPartitions.of(consumer, topic, TOPIC_WAIT);
        if (partitions.isEmpty()) {
            throw new IllegalStateException("Kafka at " + plan.kafka() + " has no topic " + topic + " (is the cluster running there, with"
                    + " the topic prefix " + plan.topics().prefix() + "?)");
        }
        return partitions;
    }

    private static long sum(Map<TopicPartition, Long> endOffsets) {
        return endOffsets.values().stream().mapToLong(Long::longValue).sum();
    }

    private KafkaConsumer<byte[], byte[]> resultReader() {
        Properties properties = common();
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private Properties common() {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, plan.kafka());
        return properties;
    }
}
