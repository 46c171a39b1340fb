package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.cli.ScrapyClusterCommand;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.ToolRunner;

import picocli.CommandLine;

/** {@code scrapy-cluster feed} against the embedded Kafka (docs/compatibility.md §2.7). */
@ExtendWith(SharedStack.class)
class FeedCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CRAWL = "{\"url\":\"https://www.example.com/\",\"appid\":\"testapp\",\"crawlid\":\"abc123\"}";

    private final EmbeddedStack stack;
    private final String topic = MonitorSettings.unique("feed") + ".incoming";

    FeedCommandTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aValidRequestIsSentAndAcknowledged() throws Exception {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(0, feed.execute(args(CRAWL)), feed.err());

        assertEquals("Successfully fed item to Kafka topic " + topic, feed.out().strip());
        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap())) {
            List<String> sent = kafka.readUntil(topic, Duration.ofMinutes(1), values -> !values.isEmpty());
            assertEquals(JSON.readTree(CRAWL), JSON.readTree(sent.getFirst()));
        }
    }

    @Test
    void anInvalidRequestIsNotSentAndEveryReasonIsPrinted() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        int status = feed.execute(args("{\"url\":\"javascript:alert(1)\",\"appid\":\"testapp\",\"crawlid\":\"abc123\",\"maxdepth\":5}"));

        assertEquals(1, status);
        assertEquals("""
                Invalid request, not sent: it matches no request schema (closest: scraper)
                  maxdepth: must be at most 3, was 5
                  url: must be an http or https URL, not javascript:""", feed.err().strip());
        assertEquals("", feed.out());
    }

    @Test
    void aRequestItsPluginRefusesIsNotSent() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        int status = feed.execute(args("{\"uuid\":\"u1\",\"appid\":\"testapp\",\"domain\":\"cnn.com\",\"action\":\"domain-update\"}"));

        assertEquals(1, status);
        assertEquals("""
                Invalid zookeeper request, not sent: 'hits' and 'window' not set for domain update
                  hits: must be set, and not 0, for a domain-update (0 is also what it is when left out)
                  window: must be set, and not 0, for a domain-update (0 is also what it is when left out)""", feed.err().strip());
    }

    @Test
    void withoutValidationAnyJsonIsSent() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(0, feed.execute(args("{\"anything\":[1,2]}", "--no-validate")), feed.err());
        assertTrue(feed.out().startsWith("Successfully fed item to Kafka"), feed.out());
    }

    @Test
    void textThatIsNotJsonIsRefused() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(1, feed.execute(args("{\"url\": ", "--no-validate")));
        assertTrue(feed.err().startsWith("JSON failed to parse: Invalid JSON: Unexpected end-of-input"), feed.err());
    }

    @Test
    void aSettingsFileOfEveryServiceIsTakenItsTyposAreNot(@TempDir Path files) throws IOException {
        Path shared = Files.writeString(files.resolve("cluster.yml"), "STANDALONE_CRAWLERS: 2\nREST_API_KEYS: [k1]\n");
        ToolRunner feed = new ToolRunner(new FeedCommand());
        assertEquals(1, feed.execute(args("{\"url\": ", "--no-validate", "--config", shared.toString())));
        assertTrue(feed.err().startsWith("JSON failed to parse: "), feed.err());

        Path typo = Files.writeString(files.resolve("typo.yml"), "STANDALONE_CRAWLERZ: 2\n");
        StringWriter err = new StringWriter();
        CommandLine scrapyCluster = ScrapyClusterCommand.commandLine();
        scrapyCluster.setErr(new PrintWriter(err, true));
        assertEquals(2, scrapyCluster.execute("feed", CRAWL, "--config", typo.toString()));
        assertEquals("scrapy-cluster feed: Unknown setting STANDALONE_CRAWLERZ in the override file " + typo
                + "; did you mean STANDALONE_CRAWLERS?", err.toString().strip());
    }

    @Test
    void textThatIsNotJsonIsToldWhatWasWrongNotTheParsersSettings() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(1, feed.execute(args("{\"url\": NaN}", "--no-validate")));
        assertEquals("JSON failed to parse: Invalid JSON: Non-standard token 'NaN', at line 1, column 12", feed.err().strip());
    }

    @Test
    void anUnreachableKafkaIsAClearFailureWithinTheTimeout() {
        ToolRunner feed = new ToolRunner(new FeedCommand());
        long started = System.nanoTime();

        String away = "127.0.0.1:" + FreePorts.pick();

        int status = feed.execute(List.of(CRAWL, "--set", "KAFKA_HOSTS=" + away, "--set", "KAFKA_FEED_TIMEOUT=2"));

        double took = (System.nanoTime() - started) / 1e9;
        assertEquals(1, status);
        String prefix = "Failed to feed item into Kafka topic demo.incoming: no answer from Kafka at " + away + " after ";
        assertTrue(feed.err().startsWith(prefix), feed.err());
        double said = Double.parseDouble(feed.err().substring(prefix.length(), feed.err().indexOf(" s (")));
        // said to a tenth of a second, rounded: 0.96 s is said as 1.0
        assertTrue(said <= took + 0.05,
                "the wait it names is the one it made (a metadata wait is half the timeout): " + said + " of " + took);
        assertTrue(took < 30, "bounded by KAFKA_FEED_TIMEOUT");
    }

    @Test
    void aRequestAndAFileTogetherAreAUsageErrorNotARequestDropped(@TempDir Path files) throws IOException {
        Path seeds = Files.writeString(files.resolve("seeds.jsonl"), CRAWL + "\n");
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(2, feed.execute(args(CRAWL, "--file", seeds.toString())));

        assertTrue(feed.err().startsWith("Give a JSON request, '-' for standard input, or --file FILE, not two of them"), feed.err());
    }

    @Test
    void aMissingFileIsNamedAsMissing(@TempDir Path files) {
        Path absent = files.resolve("absent.jsonl");
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(1, feed.execute(List.of("--file", absent.toString(), "--set", "KAFKA_HOSTS=" + stack.kafkaBootstrap())));

        assertEquals("Cannot read " + absent + ": no such file", feed.err().strip());
    }

    @Test
    void aLineThatIsNotUtf8IsOneBadLineNotTheEndOfTheFile(@TempDir Path files) throws IOException {
        String latin1 = "{\"url\":\"https://www.example.com/caf\u00e9\",\"appid\":\"testapp\",\"crawlid\":\"abc123\"}\n";
        Path seeds = files.resolve("seeds.jsonl");
        Files.write(seeds, (CRAWL + "\n").getBytes(StandardCharsets.UTF_8));
        Files.write(seeds, latin1.getBytes(StandardCharsets.ISO_8859_1), StandardOpenOption.APPEND);
        Files.write(seeds, (CRAWL + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(1, feed.execute(List.of("--file", seeds.toString(), "--set", "KAFKA_HOSTS=" + stack.kafkaBootstrap(),
                "--set", "KAFKA_INCOMING_TOPIC=" + topic)));

        assertTrue(feed.err().startsWith("line 2: JSON failed to parse: "), feed.err());
        assertEquals("Fed 2 of 3 requests to Kafka topic " + topic + "; 1 refused, 0 not acknowledged", feed.out().strip());
    }

    @Test
    void aFeedTimeoutNoLongerThanTheLingerIsASettingErrorForAFileAsForOneRequest(@TempDir Path files) throws IOException {
        Path seeds = Files.writeString(files.resolve("seeds.jsonl"), CRAWL + "\n");
        for (List<String> input : List.of(List.of(CRAWL), List.of("--file", seeds.toString()))) {
            String said = settingError(input, "KAFKA_HOSTS=" + stack.kafkaBootstrap(), "KAFKA_FEED_TIMEOUT=0");
            assertTrue(said.matches("scrapy-cluster feed: Setting KAFKA_FEED_TIMEOUT \\(from .*\\) is 0 ms, which must be longer than "
                    + "the producer's linger of \\d+ ms \\(KAFKA_PRODUCER_BATCH_LINGER_MS, or "
                    + "linger.ms in KAFKA_CLIENT_PROPERTIES\\)"), said);
        }
    }

    @Test
    void aKafkaAddressWithoutAPortIsASettingErrorForAFileAsForOneRequest(@TempDir Path files) throws IOException {
        Path seeds = Files.writeString(files.resolve("seeds.jsonl"), CRAWL + "\n");
        for (List<String> input : List.of(List.of(CRAWL), List.of("--file", seeds.toString()))) {
            assertEquals("scrapy-cluster feed: Setting KAFKA_HOSTS (from the command line) has a bad entry: 'localhost' is no "
                    + "host:port (kafka-1:9092, 10.0.0.5:9092, [::1]:9092)", settingError(input, "KAFKA_HOSTS=localhost"));
        }
    }

    /** What {@code scrapy-cluster feed} with {@code input} and {@code settings} says as it exits with 2, a setting's error. */
    private String settingError(List<String> input, String... settings) {
        StringWriter err = new StringWriter();
        CommandLine scrapyCluster = ScrapyClusterCommand.commandLine();
        scrapyCluster.setErr(new PrintWriter(err, true));
        List<String> args = new java.util.ArrayList<>(List.of("feed"));
        args.addAll(input);
        args.addAll(List.of("--set", "KAFKA_INCOMING_TOPIC=" + topic, "--log-level", "WARNING"));
        for (String setting : settings) {
            args.addAll(List.of("--set", setting));
        }
        assertEquals(2, scrapyCluster.execute(args.toArray(String[]::new)), err.toString());
        return err.toString().strip();
    }

    @Test
    void theHelpDoesNotSayItLogsToStandardOutput() {
        ToolRunner feed = new ToolRunner(new FeedCommand());

        assertEquals(0, feed.execute(List.of("--help")));

        assertTrue(feed.out().contains("Log to LOG_DIR/LOG_FILE instead of the console"), feed.out());
    }

    @Test
    void theKafkaClientsWarningsGoToStandardErrorNotIntoThePipe() {
        ToolRunner feed = new ToolRunner(new FeedCommand());
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream realOut = System.out;
        PrintStream realErr = System.err;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            assertEquals(1, feed.execute(List.of(CRAWL, "--set", "KAFKA_HOSTS=127.0.0.1:" + FreePorts.pick(), "--set", "KAFKA_FEED_TIMEOUT=2")));
        } finally {
            System.setOut(realOut);
            System.setErr(realErr);
        }

        assertEquals("", stdout.toString(StandardCharsets.UTF_8));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("WARNING: [Producer clientId="), stderr.toString(StandardCharsets.UTF_8));
    }

    private List<String> args(String json, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(json, "--set", "KAFKA_HOSTS=" + stack.kafkaBootstrap(),
                "--set", "KAFKA_INCOMING_TOPIC=" + topic));
        args.addAll(List.of(more));
        return args;
    }
}
