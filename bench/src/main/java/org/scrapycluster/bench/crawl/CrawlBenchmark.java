package org.scrapycluster.bench.crawl;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.scrapycluster.bench.BenchmarkTopics;
import org.scrapycluster.bench.ThreadCpu;
import org.scrapycluster.bench.ThreadCpu.ThreadTime;
import org.scrapycluster.common.domain.RegisteredDomain;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Crawls a {@link SyntheticSite} served by a {@link TestOrigin} with one crawler node in a JVM of its
 * own, round after round, and measures each round from the first seed to the last result on Kafka.
 *
 * <p>A round is one crawl of the whole site (a fresh crawlid, so a fresh dupefilter), or several at once,
 * each with a crawlid of its own, as overlapping crawls of one site run: page 0 of every domain is filed as
 * a seed of each crawl, as the Kafka monitor files a crawl request, all in one enqueue call, with a
 * {@code maxdepth} as large as the site (a Kafka monitor accepts it when {@code CRAWL_MAXDEPTH_LIMIT} is
 * raised), so that every page reachable from the seeds is fetched exactly once by each crawl, its links
 * extracted and filed, whatever order the pages arrive in. The round ends when the results topic has grown
 * by that many pages. The topic's end offset is watched (reading the pages themselves would cost the cores being
 * measured); once the round is over, its records are read back to check that each is a distinct page.
 * The node's CPU time and resident memory come from {@code /proc}.
 */
final class CrawlBenchmark {

    private static final String SPIDER = "link";
    private static final Duration DUPEFILTER_TTL = Duration.ofMinutes(30);
    private static final Duration WATCH_EVERY = Duration.ofMillis(10);

    /**
     * What to run.
     *
     * @param site        the synthetic site
     * @param rounds      rounds, one after another in the same node
     * @param crawls      crawls of the whole site at once in each round
     * @param jvmOptions  the node's JVM options
     * @param settings    the node's settings besides the servers' addresses
     * @param timeout     the longest a round may take
     */
    record Plan(SyntheticSite site, int rounds, int crawls, List<String> jvmOptions, Map<String, String> settings, Duration timeout) {

        Plan {
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds must be at least 1");
            }
            if (crawls < 1) {
                throw new IllegalArgumentException("crawls must be at least 1");
            }
        }

        /** Deeper than any path through the site (a path visits a page at most once), so depth never stops the crawl. */
        int maxDepth() {
            return site.domains() * site.pagesPerDomain();
        }

        /** The pages one crawl fetches: every page reachable from a seed. */
        int pagesPerCrawl() {
            Set<PageRef> reached = new HashSet<>();
            for (int domain = 0; domain < site.domains(); domain++) {
                PageRef seed = new PageRef(domain, 0);
                if (!reached.contains(seed)) {
                    reached.addAll(site.reachable(seed, maxDepth(), page -> true));
                }
            }
            return reached.size();
        }
    }

    /**
     * One round's figures.
     *
     * @param elapsed     first seed filed to last result on Kafka
     * @param crawlerCpu  CPU time of the node meanwhile
     * @param peakRss     the largest resident set of the node sampled meanwhile
     * @param redisCpu    CPU time of the embedded redis-server meanwhile (zero when Redis is not this benchmark's)
     * @param originCpu   CPU time meanwhile of this JVM: the origin, Kafka and ZooKeeper
     * @param machineBusy the busy share of all the machine's cores meanwhile
     */
    record Round(int number, int pages, Duration elapsed, Duration crawlerCpu, long peakRss, Duration redisCpu, Duration originCpu,
            double machineBusy) {

        double pagesPerSecond() {
            return pages / seconds(elapsed);
        }

        /** Milliseconds of CPU per page of {@code cpu}. */
        double perPage(Duration cpu) {
            return seconds(cpu) * 1000 / pages;
        }

        /** The node's CPU time as a share of all cores over the round, from 0 to 1. */
        double crawlerCpuShare(int cores) {
            return seconds(crawlerCpu) / seconds(elapsed) / cores;
        }
    }

    /**
     * Everything measured.
     *
     * @param threadCpu the node's CPU time by group of threads ({@link ProcessUsage#cpuByThread()}) over the
     *                  second half of the rounds, from round {@code firstRoundOfThreadCpu} on, when the JIT
     *                  has done most of its work
     */
    record Report(List<Round> rounds, long peakRssSinceStart, int firstRoundOfThreadCpu,
            Map<String, Duration> threadCpu) {

        /** The rounds {@link #threadCpu} covers, the second half, after warm-up, as one: their pages, time and CPU summed. */
        Round afterWarmUp() {
            List<Round> measured = rounds.subList(firstRoundOfThreadCpu - 1, rounds.size());
            return new Round(firstRoundOfThreadCpu, measured.stream().mapToInt(Round::pages).sum(),
                    sum(measured, Round::elapsed), sum(measured, Round::crawlerCpu),
                    measured.stream().mapToLong(Round::peakRss).max().orElse(0), sum(measured, Round::redisCpu),
                    sum(measured, Round::originCpu), measured.stream().mapToDouble(Round::machineBusy).average().orElse(0));
        }

        private static Duration sum(List<Round> rounds, Function<Round, Duration> figure) {
            return rounds.stream().map(figure).reduce(Duration.ZERO, Duration::plus);
        }
    }

    private final Plan plan;
    private final String prefix = "bench" + UUID.randomUUID().toString().substring(0, 8);
    private final Json json = new Json(new JsonLimits(64, 100_000_000, 200_000_000));

    CrawlBenchmark(Plan plan) {
        this.plan = plan;
    }

    /** The settings the node is started with, given the servers' addresses. */
    Map<String, String> nodeSettings(String kafka, String zookeeper, String redisHost, int redisPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("KAFKA_HOSTS", kafka);
        settings.put("KAFKA_TOPIC_PREFIX", prefix);
        settings.put("ZOOKEEPER_HOSTS", zookeeper);
        settings.put("ZOOKEEPER_ID", prefix);
        settings.put("REDIS_HOST", redisHost);
        settings.put("REDIS_PORT", Integer.toString(redisPort));
        settings.put("SPIDER_NAME", SPIDER);
        settings.put("PUBLIC_IP", "127.0.0.1");
        settings.put("METRICS_PORT", "-1");
        settings.put("DOWNLOAD_FORBID_PRIVATE_ADDRESSES", "false"); // the synthetic web lives on loopback
        settings.putAll(plan.settings());
        return settings;
    }

    /**
     * Runs the rounds against the given servers; {@code progress} hears of each round as it ends.
     *
     * @param redis an empty Redis of the benchmark's own
     */
    Report run(String kafka, String zookeeper, RedisConnection redis, String redisHost, int redisPort, Consumer<Round> progress)
            throws IOException, InterruptedException {
        int pagesPerRound = plan.pagesPerCrawl() * plan.crawls();
        String topic = Topics.withPrefix(prefix).crawledFirehose();
        createTopic(kafka, topic);
        List<Round> rounds = new ArrayList<>();
        try (TestOrigin origin = TestOrigin.builder().site(plan.site()).requestLogCapacity(0).start();
             KafkaConsumer<byte[], byte[]> results = resultReader(kafka, topic)) {
            CrawlerProcess crawler = CrawlerProcess.start(plan.jvmOptions(), nodeSettings(kafka, zookeeper, redisHost, redisPort), redis);
            boolean failed = true;
            long peakSinceStart;
            int firstRoundOfThreadCpu = plan.rounds() / 2 + 1;
            Map<String, Duration> threadCpu;
            try (ProcessUsage usage = new ProcessUsage(crawler.handle())) {
                TopicPartition partition = results.assignment().iterator().next();
                Map<Long, ThreadTime> threadsBefore = Map.of();
                for (int number = 1; number <= plan.rounds(); number++) {
                    if (number == firstRoundOfThreadCpu) {
                        threadsBefore = usage.cpuByThread();
                    }
                    Round round = round(number, pagesPerRound, origin, redis, crawler, usage, results, partition);
                    rounds.add(round);
                    progress.accept(round);
                }
                threadCpu = ThreadCpu.byGroup(threadsBefore, usage.cpuByThread());
                peakSinceStart = usage.peakResidentBytes();
                failed = false;
            } finally {
                crawler.close();
                if (!failed) {
                    Files.deleteIfExists(crawler.log());
                }
            }
            return new Report(rounds, peakSinceStart, firstRoundOfThreadCpu, threadCpu);
        }
    }

    private Round round(int number, int pages, TestOrigin origin, RedisConnection redis, CrawlerProcess crawler, ProcessUsage usage,
            KafkaConsumer<byte[], byte[]> results, TopicPartition partition) throws InterruptedException {
        List<String> crawlids = IntStream.rangeClosed(1, plan.crawls())
                .mapToObj(crawl -> prefix + "-r" + number + (plan.crawls() == 1 ? "" : "-c" + crawl)).toList();
        List<EnqueueRequest> seeds = crawlids.stream().flatMap(crawlid -> seeds(origin, crawlid).stream()).toList();
        long base = endOffset(results, partition);
        ProcessUsage.MachineTicks machineBefore = ProcessUsage.MachineTicks.now();
        Duration cpuBefore = usage.cpu();
        Duration redisBefore = redisCpu();
        Duration originBefore = ownCpu();
        usage.resetPeak();
        long started = System.nanoTime();
        for (EnqueueOutcome outcome : new Enqueuer(redis, false).enqueueBatchAsync(seeds).join()) {
            if (outcome != EnqueueOutcome.QUEUED) {
                throw new IllegalStateException("a seed was not queued: " + outcome);
            }
        }
        long deadline = started + plan.timeout().toNanos();
        long arrived = 0;
        while (arrived < pages) {
            if (!crawler.isAlive()) {
                throw new IllegalStateException("the crawler node died in round " + number + "; see " + crawler.log());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("round " + number + ": only " + arrived + " of " + pages + " pages arrived within "
                        + plan.timeout() + "; see " + crawler.log());
            }
            Thread.sleep(WATCH_EVERY);
            arrived = endOffset(results, partition) - base;
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        Round round = new Round(number, pages, elapsed, usage.cpu().minus(cpuBefore), usage.sampledPeakBytes(),
                redisCpu().minus(redisBefore), ownCpu().minus(originBefore), ProcessUsage.MachineTicks.now().busySince(machineBefore));
        checkDistinct(results, partition, base, base + arrived, Set.copyOf(crawlids), plan.timeout());
        return round;
    }

    /** Page 0 of every domain, the seeds of crawl {@code crawlid}, as the Kafka monitor files validated crawl requests. */
    private List<EnqueueRequest> seeds(TestOrigin origin, String crawlid) {
        List<EnqueueRequest> seeds = new ArrayList<>();
        for (int domain = 0; domain < plan.site().domains(); domain++) {
            String url = origin.pageUrl(new PageRef(domain, 0));
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("url", url);
            request.put("appid", "bench");
            request.put("crawlid", crawlid);
            request.put("spiderid", SPIDER);
            request.put("priority", 1);
            request.put("maxdepth", plan.maxDepth());
            for (String absent : List.of("domain_max_pages", "allowed_domains", "allow_regex", "deny_regex", "deny_extensions",
                    "useragent", "cookie", "attrs")) {
                request.put(absent, null);
            }
            request.put("expires", 0);
            request.put("ts", BigDecimal.valueOf(System.currentTimeMillis(), 3));
            seeds.add(EnqueueRequest.of(new QueueKey(SPIDER, RegisteredDomain.of(url)), json.writeString(request))
                    .withDupefilter(new EnqueueRequest.Dupefilter(Keyspace.dupefilter(SPIDER, crawlid), RequestFingerprint.of(url),
                            DUPEFILTER_TTL))
                    .withTimeoutKey());
        }
        return seeds;
    }

    /**
     * Reads the round's records back and fails when a crawl's page came twice or a record is not of the round's crawls, or
     * when they cannot all be read within {@code timeout}.
     */
    private void checkDistinct(KafkaConsumer<byte[], byte[]> results, TopicPartition partition, long from, long to, Set<String> crawlids,
            Duration timeout) {
        Set<String> seen = new HashSet<>();
        results.seek(partition, from);
        long position = from;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (position < to) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("read back only " + (position - from) + " of the round's " + (to - from)
                        + " results within " + timeout);
            }
            for (ConsumerRecord<byte[], byte[]> record : results.poll(Duration.ofMillis(500))) {
                if (record.offset() >= to) {
                    break;
                }
                JsonNode result;
                try {
                    result = json.readTree(record.value());
                } catch (JsonInputException e) {
                    throw new IllegalStateException("a result is not JSON: " + e.getMessage(), e);
                }
                String crawlid = result.path("crawlid").asText();
                String url = result.path("url").asText();
                if (!crawlids.contains(crawlid) || !seen.add(crawlid + " " + url)) {
                    throw new IllegalStateException("result at offset " + record.offset() + " is not a new page of the round's crawls "
                            + crawlids + ": " + crawlid + " " + url);
                }
            }
            position = results.position(partition);
        }
    }

    /**
     * CPU time of the redis-server processes this JVM started: the embedded Redis, when there is one. They are
     * looked for among all its descendants, because the embedded Redis runs under a shell that stops it when
     * this JVM ends. Debian's {@code redis-server} is a link to {@code redis-check-rdb}, the executable its
     * process shows.
     */
    static Duration redisCpu() {
        return ProcessHandle.current().descendants().filter(process -> process.info().command().orElse("").contains("redis-"))
                .map(process -> process.info().totalCpuDuration().orElse(Duration.ZERO))
                .reduce(Duration.ZERO, Duration::plus);
    }

    private static Duration ownCpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    private static long endOffset(KafkaConsumer<byte[], byte[]> results, TopicPartition partition) {
        return results.endOffsets(List.of(partition)).get(partition);
    }

    private static KafkaConsumer<byte[], byte[]> resultReader(String kafka, String topic) {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        return consumer;
    }

    private static void createTopic(String kafka, String topic) {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka);
        try (Admin admin = Admin.create(properties)) {
            BenchmarkTopics.create(admin, topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the results topic", e);
        }
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
