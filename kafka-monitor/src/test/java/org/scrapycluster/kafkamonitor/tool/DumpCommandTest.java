package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.cli.ScrapyClusterCommand;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.ToolRunner;

import picocli.CommandLine;

/** {@code scrapy-cluster dump list} and {@code dump <topic>} against the embedded Kafka (docs/compatibility.md §2.8). */
@ExtendWith(SharedStack.class)
class DumpCommandTest {

    private static final String PAGE = "{\"appid\":\"app1\",\"crawlid\":\"c1\",\"url\":\"http://example.com/\",\"encoding\":\"iso-8859-1\",\"body\":\""
            + Base64.getEncoder().encodeToString("<p>café</p>".getBytes(StandardCharsets.ISO_8859_1)) + "\"}";

    private final EmbeddedStack stack;
    private final String topic = MonitorSettings.unique("dump") + ".crawled_firehose";
    private KafkaTopics kafka;

    DumpCommandTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void connect() {
        kafka = new KafkaTopics(stack.kafkaBootstrap());
    }

    @AfterEach
    void disconnect() {
        kafka.close();
    }

    /** Standard output after its reader has gone, as {@code dump ... | head -1} leaves it. */
    private static final class ClosedPipe extends OutputStream {

        @Override
        public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
        }
    }

    @Test
    void listPrintsTheTopics() {
        kafka.sendText(topic, PAGE);
        ToolRunner list = new ToolRunner(new DumpCommand());

        assertEquals(0, list.execute(List.of("list", "-kh", stack.kafkaBootstrap())), list.err());

        assertTrue(list.out().startsWith("Topics:\n"), list.out());
        assertTrue(list.out().lines().toList().contains("- " + topic), list.out());
    }

    @Test
    void optionsGivenBeforeListAreAUsageErrorRatherThanLeftUnused() {
        ToolRunner list = new ToolRunner(new DumpCommand());

        assertEquals(2, list.execute(List.of("--set", "KAFKA_HOSTS=127.0.0.1:1", "-b", "list", "-kh", stack.kafkaBootstrap())),
                list.out());

        assertTrue(list.err().startsWith("dump list does not use what comes before 'list' (--set, --from-beginning); give --config,"
                + " --set or --kafka-host after it: dump list --set KAFKA_HOSTS=HOST:PORT\n"), list.err());
        assertEquals("", list.out());
    }

    @Test
    void aSettingsFileOfEveryServiceIsTaken(@TempDir Path files) throws IOException {
        Path shared = Files.writeString(files.resolve("cluster.yml"), "STANDALONE_CRAWLERS: 2\nREST_API_KEYS: [k1]\n");
        ToolRunner list = new ToolRunner(new DumpCommand());

        assertEquals(0, list.execute(List.of("list", "-kh", stack.kafkaBootstrap(), "--config", shared.toString())), list.err());
        assertTrue(list.out().startsWith("Topics:\n"), list.out());
    }

    @Test
    void fromTheBeginningItPrintsEachMessageAndSumsUpWithTheRealByteCount() {
        kafka.sendText(topic, PAGE, "not json at all", "{\"n\":3}");
        ToolRunner dump = new ToolRunner(new DumpCommand());

        assertEquals(0, dump.execute(List.of(topic, "-b", "-n", "3", "-kh", stack.kafkaBootstrap())), dump.err());

        assertEquals(List.of(PAGE, "not json at all", "{\"n\":3}"), dump.out().lines().toList());
        long bytes = PAGE.length() + "not json at all".length() + "{\"n\":3}".length();
        assertTrue(dump.err().contains("Last item:\n{\"n\":3}\n"), dump.err());
        assertTrue(dump.err().contains(String.format(java.util.Locale.ROOT, "Num Records: 3, Total MBs: %.6f, kb per message: %.3f",
                bytes / 1e6, bytes / 1e3 / 3)), dump.err());
    }

    @Test
    void theBodyCanBeDroppedDecodedOrShownAlone() {
        kafka.sendText(topic, PAGE);

        ToolRunner noBody = new ToolRunner(new DumpCommand());
        assertEquals(0, noBody.execute(List.of("-t", topic, "-b", "-n", "1", "-nb", "-kh", stack.kafkaBootstrap())), noBody.err());
        assertEquals("{\"appid\":\"app1\",\"crawlid\":\"c1\",\"url\":\"http://example.com/\",\"encoding\":\"iso-8859-1\"}", noBody.out().strip());

        ToolRunner decodedBody = new ToolRunner(new DumpCommand());
        assertEquals(0, decodedBody.execute(List.of(topic, "-b", "-n", "1", "-jb", "-d", "-kh", stack.kafkaBootstrap())), decodedBody.err());
        assertEquals("<p>café</p>", decodedBody.out().strip());

        ToolRunner pretty = new ToolRunner(new DumpCommand());
        assertEquals(0, pretty.execute(List.of(topic, "-b", "-n", "1", "-p", "-nb", "-kh", stack.kafkaBootstrap())), pretty.err());
        assertEquals("""
                {
                    "appid": "app1",
                    "crawlid": "c1",
                    "url": "http://example.com/",
                    "encoding": "iso-8859-1"
                }""", pretty.out().strip());

        ToolRunner both = new ToolRunner(new DumpCommand());
        assertEquals(2, both.execute(List.of(topic, "-nb", "-jb")));
        assertTrue(both.err().contains("mutually exclusive"), both.err());
    }

    @Test
    void fromTheLatestOffsetItPrintsOnlyWhatComesAfterItStarted() throws Exception {
        kafka.sendText(topic, "{\"old\":true}");
        ToolRunner dump = new ToolRunner(new DumpCommand());
        AtomicInteger status = new AtomicInteger(-1);
        Thread running = Thread.ofPlatform().start(() -> status.set(dump.execute(List.of(topic, "-n", "2", "-kh", stack.kafkaBootstrap()))));

        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> dump.err().contains("Dumping " + topic + " from the latest offset"));
        kafka.sendText(topic, "{\"new\":1}", "{\"new\":2}");
        running.join(Duration.ofMinutes(1));

        assertEquals(0, status.get(), dump.err());
        assertEquals(List.of("{\"new\":1}", "{\"new\":2}"), dump.out().lines().toList());
    }

    @Test
    void inAConsumerGroupASecondDumpGoesOnWhereTheFirstStopped() {
        String group = MonitorSettings.unique("dumpers");
        kafka.sendText(topic, "{\"n\":1}", "{\"n\":2}");
        List<String> printed = new ArrayList<>();
        ToolRunner first = new ToolRunner(new DumpCommand());
        assertEquals(0, first.execute(List.of(topic, "-b", "-c", group, "-n", "2", "-kh", stack.kafkaBootstrap())), first.err());
        printed.addAll(first.out().lines().toList());

        kafka.sendText(topic, "{\"n\":3}");
        ToolRunner second = new ToolRunner(new DumpCommand());
        assertEquals(0, second.execute(List.of(topic, "-b", "-c", group, "-n", "1", "-kh", stack.kafkaBootstrap())), second.err());
        printed.addAll(second.out().lines().toList());

        assertEquals(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}"), printed);
        assertTrue(second.err().contains("Dumping " + topic + " in group " + group + " from where the group left off, or from the "
                + "beginning where it has no offset yet"), "not 'from the beginning', which it does not do: " + second.err());
    }

    @Test
    void inAConsumerGroupACountCommitsTheMessagesPrintedAndNotTheRestOfTheirPoll() {
        String group = MonitorSettings.unique("dumpers");
        kafka.sendText(topic, "{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}");
        List<String> printed = new ArrayList<>();

        for (String count : List.of("1", "1", "2")) {
            ToolRunner dump = new ToolRunner(new DumpCommand());
            List<String> args = List.of(topic, "-b", "-c", group, "-n", count, "-kh", stack.kafkaBootstrap());
            // a dump that skipped messages would wait for more without end
            assertEquals(0, assertTimeoutPreemptively(Duration.ofSeconds(30), () -> dump.execute(args)), dump.err());
            printed.addAll(dump.out().lines().toList());
        }

        assertEquals(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}"), printed,
                "each dump's one poll returns every message left; only those printed are committed");
    }

    @Test
    void itStopsWhenNothingReadsItsOutputAnyMore() throws InterruptedException {
        kafka.sendText(topic, "{\"n\":1}", "{\"n\":2}");
        StringWriter err = new StringWriter();
        CommandLine dump = new CommandLine(new DumpCommand());
        dump.setOut(new PrintWriter(new ClosedPipe(), true));
        dump.setErr(new PrintWriter(err, true));
        AtomicInteger status = new AtomicInteger(-1);
        Thread running = Thread.ofPlatform().daemon().start(() -> status.set(dump.execute(topic, "-b", "-kh", stack.kafkaBootstrap(),
                "--log-level", "WARNING")));

        running.join(Duration.ofMinutes(1));

        assertFalse(running.isAlive(), "dump went on writing into a closed pipe: " + err);
        assertEquals(1, status.get(), err.toString());
        assertTrue(err.toString().strip().endsWith("\nStopped: cannot write to standard output (nothing reads it any more)"),
                "no sum of messages its reader never took: " + err);
    }

    @Test
    void anAbsentTopicIsWaitedForWithoutBeingCreated() throws InterruptedException {
        dumpsTheTopicOnceSomeoneElseCreatesIt(List.of());
    }

    @Test
    void inAConsumerGroupAnAbsentTopicIsWaitedForWithoutBeingCreated() throws InterruptedException {
        dumpsTheTopicOnceSomeoneElseCreatesIt(List.of("-c", MonitorSettings.unique("dumpers")));
    }

    /**
     * Against a broker that creates a topic when a client asks for it (the embedded one does), as Kafka does by default.
     * Without {@code -b}: what is sent to the topic as it is created, before the dump looks again, is shown too.
     */
    private void dumpsTheTopicOnceSomeoneElseCreatesIt(List<String> options) throws InterruptedException {
        List<String> args = new ArrayList<>(List.of(topic, "-n", "1", "-kh", stack.kafkaBootstrap()));
        args.addAll(options);
        ToolRunner dump = new ToolRunner(new DumpCommand());
        AtomicInteger status = new AtomicInteger(-1);
        Thread running = Thread.ofPlatform().daemon().start(() -> status.set(dump.execute(args)));

        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> dump.err().contains(topic));

        assertFalse(kafka.exists(topic), "dump created " + topic + ": " + dump.err());
        assertEquals(waitingForTheTopic(), dump.err().strip());
        kafka.createTopic(topic);
        kafka.sendText(topic, "{\"n\":1}");
        running.join(Duration.ofMinutes(1));
        assertEquals(0, status.get(), dump.err());
        assertEquals(List.of("{\"n\":1}"), dump.out().lines().toList());
    }

    @Test
    void stoppedWhileItWaitsForTheTopicItSaysStoppedAndNothingElse() throws Exception {
        Path errFile = Files.createTempFile("dump", ".err");
        Process dump = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), ScrapyClusterCommand.class.getName(),
                "dump", topic, "-kh", stack.kafkaBootstrap())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errFile.toFile()).start();
        try {
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> Files.readString(errFile).contains("No topic " + topic));

            dump.destroy();

            assertTrue(dump.waitFor(1, TimeUnit.MINUTES), "dump went on after SIGTERM");
            String err = Files.readString(errFile);
            assertEquals(List.of(waitingForTheTopic(), "Stopped"), err.lines().toList());
        } finally {
            dump.destroyForcibly();
            Files.delete(errFile);
        }
    }

    /** What dump says when {@link #topic} does not exist yet. */
    private String waitingForTheTopic() {
        return "No topic " + topic + " at " + stack.kafkaBootstrap() + " yet: waiting for it (Ctrl-C to stop; 'dump list' lists the topics)";
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"without a group", "in a group"})
    void anUnreachableKafkaIsSaidToBeWaitedForThenGivenUpInOneLine(String how) {
        String away = "127.0.0.1:" + FreePorts.pick();
        List<String> args = new ArrayList<>(List.of(topic, "-kh", away));
        if (how.equals("in a group")) {
            args.addAll(List.of("-c", MonitorSettings.unique("dumpers")));
        }
        // 1 s to answer rather than 30 s: nothing listens at that port, so any wait proves the same
        ToolRunner dump = new ToolRunner(new DumpCommand(Duration.ofSeconds(1)));

        assertEquals(1, assertTimeoutPreemptively(Duration.ofMinutes(1), () -> dump.execute(args)));

        assertEquals(List.of("Kafka at " + away + " does not answer yet: waiting for it, up to 1 s in all (Ctrl-C to stop)",
                "Cannot reach Kafka at " + away + ": no answer within 1 s"), dump.err().lines().toList());
    }

    @Test
    void listSaysItWaitsForAnUnreachableKafkaAndThenThatItCannotList() {
        String away = "127.0.0.1:" + FreePorts.pick();
        ToolRunner list = new ToolRunner(new TopicList(Duration.ofSeconds(1)));

        assertEquals(1, assertTimeoutPreemptively(Duration.ofMinutes(1), () -> list.execute(List.of("-kh", away))));

        assertEquals(List.of("Kafka at " + away + " does not answer yet: waiting for it, up to 1 s in all (Ctrl-C to stop)",
                "Cannot list the topics of Kafka at " + away + ": no answer within 1 s"), list.err().lines().toList());
        assertEquals("", list.out());
    }

    @Test
    void aNameKafkaCannotHaveIsAUsageError() {
        ToolRunner dump = new ToolRunner(new DumpCommand());

        assertEquals(2, dump.execute(List.of("demo crawled_firehose", "-kh", stack.kafkaBootstrap())), dump.err());

        assertTrue(dump.err().startsWith("Not a Kafka topic name: 'demo crawled_firehose'"), dump.err());
    }

    @Test
    void aKafkaAddressWithoutAPortIsAUsageError() {
        ToolRunner dump = new ToolRunner(new DumpCommand());
        assertEquals(2, dump.execute(List.of(topic, "-kh", "localhost")));
        assertTrue(dump.err().startsWith("--kafka-host: 'localhost' is no host:port (kafka-1:9092, 10.0.0.5:9092, [::1]:9092)"), dump.err());

        ToolRunner list = new ToolRunner(new DumpCommand());
        assertEquals(2, list.execute(List.of("list", "-kh", "localhost")));
        assertTrue(list.err().startsWith("--kafka-host: 'localhost' is no host:port"), list.err());
    }

    @Test
    void anEmptyGroupNameIsAUsageError() {
        ToolRunner dump = new ToolRunner(new DumpCommand());

        assertEquals(2, dump.execute(List.of(topic, "-c", "", "-kh", stack.kafkaBootstrap())));

        assertTrue(dump.err().startsWith("--consumer: the group's name is empty; give one, or leave -c out to read in none"), dump.err());
        assertEquals("", dump.out());
    }

    @Test
    void withoutATopicItSaysWhatIsMissing() {
        ToolRunner dump = new ToolRunner(new DumpCommand());

        assertEquals(2, dump.execute(List.of()));
        assertTrue(dump.err().contains("Missing topic: dump TOPIC, or dump list"), dump.err());
    }
}
