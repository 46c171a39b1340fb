package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;

/** Runs {@code scrapy-cluster standalone} in this JVM on free ports, uses it, and stops it. */
class StandaloneCommandTest {

    private static final Pattern READY = Pattern.compile(
            "Scrapy Cluster ready: kafka (127\\.0\\.0\\.1:\\d+), zookeeper (127\\.0\\.0\\.1:\\d+), redis 127\\.0\\.0\\.1:(\\d+), "
                    + "metrics http://127\\.0\\.0\\.1:(\\d+)/metrics, rest http://127\\.0\\.0\\.1:(\\d+)(?:, services [a-z0-9 -]+)?"
                    + ", private addresses allowed \\(demo; set DOWNLOAD_FORBID_PRIVATE_ADDRESSES=true to forbid\\)");

    @Test
    void startsServesAndStopsCleanly() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        StringWriter out = new StringWriter();
        AtomicInteger status = new AtomicInteger(-1);
        Thread cluster = Thread.ofPlatform().name("standalone-under-test").start(() -> {
            CommandLine cli = ScrapyCluster.commandLine();
            cli.setOut(new PrintWriter(out, true));
            status.set(cli.execute("standalone", "--log-level", "WARNING",
                    "--set", "STANDALONE_KAFKA_PORT=0", "--set", "STANDALONE_ZOOKEEPER_PORT=0",
                    "--set", "STANDALONE_REDIS_PORT=0", "--set", "METRICS_PORT=0", "--set", "METRICS_HOST=127.0.0.1",
                    "--set", "FLASK_PORT=0"));
        });

        Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> READY.matcher(out.toString()).find() || !cluster.isAlive());
        List<String> lines = out.toString().lines().toList();
        assertEquals(1, lines.size(), "exactly one ready line: " + lines);
        Matcher ready = READY.matcher(lines.getFirst());
        assertTrue(ready.matches(), lines.getFirst());
        int redisPort = Integer.parseInt(ready.group(3));

        assertEquals("+PONG", ping(redisPort));
        assertEquals("hello", roundTrip(ready.group(1)));
        assertTrue(lines.getFirst().contains("services kafka-monitor"), lines.getFirst());
        assertFedCrawlIsQueued(ready.group(1), redisPort);
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ready.group(4) + "/health")).build();
            // Services connect in the background after the ready line: health turns UP once they have.
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> http.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
            HttpRequest gateway = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ready.group(5) + "/")).build();
            Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> http.send(gateway, HttpResponse.BodyHandlers.ofString()).body().contains("\"node_health\":\"GREEN\""));
        }

        cluster.interrupt();
        cluster.join(Duration.ofMinutes(1));
        assertFalse(cluster.isAlive(), "standalone stopped");
        assertEquals(0, status.get());
        assertFalse(FreePorts.inUse(redisPort), "redis-server is gone");
        assertFalse(FreePorts.inUse(Integer.parseInt(ready.group(1).split(":")[1])), "the broker is gone");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.filter(p -> Files.isDirectory(p) && p.getFileName().toString().startsWith("scrapy-cluster-")).toList(),
                    "no temporary data left");
        }
    }

    /**
     * Ctrl-C while the embedded broker starts: its metrics cannot register their shutdown hook any more, and the start
     * fails with an Error, not an exception. That is the same start cut short by a stop: one line, no stack trace.
     */
    @Test
    void anErrorOutOfAStartCutShortByAStopIsTheOneLineAStopGives() {
        try (CapturedLog log = CapturedLog.start(StandaloneCommand.class, Level.DEBUG)) {
            assertEquals(Optional.empty(), StandaloneCommand.startUnlessStopped(() -> {
                throw new ExceptionInInitializerError(new IllegalStateException("Shutdown in progress"));
            }, () -> true));
            assertEquals(List.of("INFO Stopped before every service had started"), log.lines());
            assertEquals("reason=\"Shutdown in progress\"", log.events().getFirst().getKeyValuePairs().getFirst().toString());
        }
    }

    @Test
    void aFailedStartWhileNoStopWasAskedForIsThrown() {
        Error failure = new ExceptionInInitializerError(new IllegalStateException("a broken library"));
        try (CapturedLog log = CapturedLog.start(StandaloneCommand.class, Level.DEBUG)) {
            assertSame(failure, assertThrows(Error.class, () -> StandaloneCommand.startUnlessStopped(() -> {
                throw failure;
            }, () -> false)));
            assertEquals(List.of(), log.lines());
        }
        assertEquals(Optional.of("started"), StandaloneCommand.startUnlessStopped(() -> "started", () -> true));
    }

    /** {@code scrapy-cluster feed} a crawl request; the cluster's Kafka monitor files it into Redis. */
    private static void assertFedCrawlIsQueued(String kafka, int redisPort) {
        String spider = "standalone" + UUID.randomUUID().toString().substring(0, 8);
        StringWriter fed = new StringWriter();
        CommandLine feed = ScrapyCluster.commandLine();
        feed.setOut(new PrintWriter(fed, true));
        assertEquals(0, feed.execute("feed", "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\""
                + spider + "\"}", "--set", "KAFKA_HOSTS=" + kafka, "--log-level", "WARNING"));
        assertTrue(fed.toString().startsWith("Successfully fed item to Kafka"), fed.toString());
        try (RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", redisPort))) {
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().zcard(spider + ":example.com:queue") == 1);
        }
    }

    private static String ping(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            OutputStream output = socket.getOutputStream();
            output.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            output.flush();
            InputStream input = socket.getInputStream();
            byte[] reply = new byte[5];
            return new String(reply, 0, input.readNBytes(reply, 0, reply.length), StandardCharsets.US_ASCII);
        }
    }

    private static String roundTrip(String bootstrap) throws Exception {
        KafkaClients clients = new KafkaClients(Settings.load("kafka-monitor",
                new SettingsSources(null, Map.of(), Map.of("KAFKA_HOSTS", bootstrap))));
        String topic = "standalone-test-" + UUID.randomUUID();
        try (Producer<String, byte[]> producer = clients.bytesProducer()) {
            producer.send(new ProducerRecord<>(topic, "hello".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        }
        List<ConsumerRecord<String, byte[]>> received = new ArrayList<>();
        try (Consumer<String, byte[]> consumer = clients.bytesConsumer("standalone-test")) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return !received.isEmpty();
            });
        }
        return new String(received.getFirst().value(), StandardCharsets.UTF_8);
    }
}
