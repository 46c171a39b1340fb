package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.scrapycluster.bench.BenchCommand;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;

/**
 * {@code bench outside} against a stand-in for a cluster on the embedded Kafka: a thread that answers each crawl's
 * requests with result records of chosen timestamps, after fetching a seed from the site the command serves.
 */
@ExtendWith(SharedStack.class)
class OutsideBenchCommandTest {

    private static final int PAGES = 100;
    private static final String SELF = Long.toString(ProcessHandle.current().pid());
    /** Page 0 of a domain on 127.0.0.11 to 127.0.0.30. */
    private static final Pattern SEED = Pattern.compile("http://127\\.0\\.0\\.(1[1-9]|2\\d|30):\\d+/p/0");

    private final EmbeddedStack stack;

    OutsideBenchCommandTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void countsThePagesOfEachCrawlAndTheirRateByTheirTimestamps() throws Exception {
        Topics topics = Topics.withPrefix("outside" + UUID.randomUUID().toString().substring(0, 8));
        try (Admin admin = Admin.create(common())) {
            admin.createTopics(List.of(new NewTopic(topics.incoming(), 2, (short) 1), new NewTopic(topics.crawledFirehose(), 2, (short) 1)))
                    .all().get();
        }
        List<JsonNode> requests = new CopyOnWriteArrayList<>();
        List<Integer> seedStatuses = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread cluster = Thread.ofPlatform().name("stand-in-cluster").start(() -> standIn(topics, requests, seedStatuses, done));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status;
        try {
            status = command(out, err).execute("outside", "--kafka", stack.kafkaBootstrap(), "--topic-prefix", topics.prefix(),
                    "--pid", "self=" + SELF, "--pid", "again=" + SELF, "--crawls", "3", "--quiet-seconds", "1", "--port", "0");
        } finally {
            done.set(true);
            cluster.join();
        }

        assertEquals(0, status, err.toString());
        String report = out.toString();
        assertTrue(report.contains("each 2 crawl ids' requests to " + topics.incoming() + " for page 0 of 20 domains (127.0.0.11 to"
                + " 127.0.0.30, port "), report);
        assertTrue(report.contains("CPU of self (pid " + SELF + "), again (pid " + SELF + "); "), report);
        for (int crawl = 1; crawl <= 3; crawl++) {
            // 100 records 10 ms apart: 99 intervals, 990 ms
            assertTrue(Pattern.compile("\ncrawl " + crawl + ": 100 pages, 101 pages/s; CPU a page: self \\d+\\.\\d{3} ms, again"
                    + " \\d+\\.\\d{3} ms, together \\d+\\.\\d{3} ms; to the last results: self \\d+\\.\\d{3} ms, again"
                    + " \\d+\\.\\d{3} ms, together \\d+\\.\\d{3} ms\n").matcher(report).find(), report);
        }
        assertTrue(report.contains("\ncrawls 2 to 3 (the second half), the mean of each crawl's figures: 101 pages/s; "), report);
        assertTrue(Pattern.compile("\nself CPU by thread, crawls 2 to 3: \\d+ µs a page\n").matcher(report).find(),
                "the first process named, by thread: " + report);
        assertTrue(report.endsWith(" after the run" + System.lineSeparator()), report);
        assertEquals(3 * 40, requests.size());
        assertEquals(6, requests.stream().map(request -> request.path("crawlid").asText()).distinct().count(),
                "two crawl ids of its own a crawl");
        assertTrue(requests.stream().allMatch(request -> SEED.matcher(request.path("url").asText()).matches()
                && request.path("maxdepth").asInt() == 3 && request.path("appid").asText().equals("bench")), requests.toString());
        assertEquals(List.of(200, 200, 200), seedStatuses, "the site answers at the seeds' URLs");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--crawls=0|crawls must be at least 1",
            "--quiet-seconds=0|the quiet period must be at least 1 s",
            "--port=65536|port must be from 0 to 65535, was 65536",
            "--topic-prefix=a b|prefix \"a b\" is not a legal Kafka topic name",
            "--kafka=nocolon|--kafka: 'nocolon' is no host:port"})
    void refusesARunItCannotMake(String option, String message) {
        StringWriter err = new StringWriter();

        int status = command(new StringWriter(), err).execute("outside", "--pid", "self=" + SELF, option);

        assertEquals(2, status);
        assertTrue(err.toString().contains(message), err.toString());
    }

    @Test
    void needsAProcessToMeasure() {
        StringWriter err = new StringWriter();

        int status = command(new StringWriter(), err).execute("outside");

        assertEquals(2, status);
        assertTrue(err.toString().contains("Missing required option: '--pid=NAME=PID'"), err.toString());
    }

    @Test
    void refusesAPidThatIsNoRunningProcess() {
        StringWriter err = new StringWriter();

        int status = command(new StringWriter(), err).execute("outside", "--pid", "standalone=" + Integer.MAX_VALUE);

        assertEquals(2, status);
        assertTrue(err.toString().contains("no process " + Integer.MAX_VALUE + " runs (--pid standalone=" + Integer.MAX_VALUE + ")"),
                err.toString());
    }

    private static CommandLine command(StringWriter out, StringWriter err) {
        CommandLine bench = BenchCommand.commandLine();
        bench.setOut(new PrintWriter(out));
        bench.setErr(new PrintWriter(err));
        return bench;
    }

    /**
     * Answers every 40 requests with {@value #PAGES} results 10 ms apart by their timestamps, after fetching the first
     * request's seed; stops when {@code done}.
     */
    private void standIn(Topics topics, List<JsonNode> requests, List<Integer> seedStatuses, AtomicBoolean done) {
        ObjectMapper json = new ObjectMapper();
        Properties consumer = common();
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> incoming = new KafkaConsumer<>(consumer, new StringDeserializer(), new StringDeserializer());
             KafkaProducer<String, String> results = new KafkaProducer<>(common(), new StringSerializer(), new StringSerializer());
             HttpClient http = HttpClient.newHttpClient()) {
            incoming.assign(List.of(new TopicPartition(topics.incoming(), 0), new TopicPartition(topics.incoming(), 1)));
            List<JsonNode> crawl = new ArrayList<>();
            while (!done.get()) {
                for (ConsumerRecord<String, String> record : incoming.poll(Duration.ofMillis(100))) {
                    crawl.add(json.readTree(record.value()));
                }
                if (crawl.size() >= 40) {
                    URI seed = URI.create(crawl.getFirst().path("url").asText());
                    seedStatuses.add(http.send(HttpRequest.newBuilder(seed).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
                    long first = System.currentTimeMillis();
                    for (int page = 0; page < PAGES; page++) {
                        results.send(new ProducerRecord<>(topics.crawledFirehose(), null, first + 10L * page, null, "{}"));
                    }
                    results.flush();
                    requests.addAll(crawl);
                    crawl.clear();
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the stand-in cluster failed", e);
        }
    }

    private Properties common() {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap());
        return properties;
    }
}
