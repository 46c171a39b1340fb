package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.SequenceInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.testing.AnswerlessHandler;
import org.scrapycluster.kafkamonitor.testing.RecursingHandler;

/** feed - / feed --file: every line checked with the monitor's own plugins, bad lines reported by number, the rest sent. */
class BulkFeedTest {

    private static final Settings SETTINGS = Settings.load("kafka-monitor", SettingsSources.none());
    private static final PluginSet PLUGINS = PluginSet.load(SETTINGS);

    private final List<String> sent = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void goodLinesAreSentAndEachBadOneIsReportedWithItsNumber() throws IOException {
        String input = String.join("\n",
                "{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c1\"}",
                "{not json",
                "",
                "{\"url\": \"http://b.example/\", \"appid\": \"app\"}",
                "{\"url\": \"http://c.example/\", \"appid\": \"app\", \"crawlid\": \"c3\"}");
        assertFalse(feed(input));
        assertEquals(List.of("{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c1\"}",
                "{\"url\": \"http://c.example/\", \"appid\": \"app\", \"crawlid\": \"c3\"}"), sent);
        assertTrue(err.toString().contains("line 2: JSON failed to parse"), err.toString());
        assertTrue(err.toString().contains("line 4: Invalid request, not sent"), err.toString());
        assertFalse(err.toString().contains("line 1:") || err.toString().contains("line 5:"), err.toString());
        assertTrue(out.toString().startsWith("Fed 2 of 4 requests to Kafka topic demo.incoming; 2 refused, 0 not acknowledged"),
                out.toString());
    }

    @Test
    void aLongInputShowsProgressAndSucceedsWhenEveryLineIsSent() throws IOException {
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < BulkFeed.PROGRESS_EVERY + 5; i++) {
            input.append("{\"url\": \"http://a.example/").append(i).append("\", \"appid\": \"app\", \"crawlid\": \"c\"}\n");
        }
        assertTrue(feed(input.toString()));
        assertEquals(BulkFeed.PROGRESS_EVERY + 5, sent.size());
        assertTrue(err.toString().contains("feed: " + BulkFeed.PROGRESS_EVERY + " lines read, " + BulkFeed.PROGRESS_EVERY + " sent, 0 refused\n"),
                err.toString());
    }

    @ParameterizedTest
    @ValueSource(classes = {AnswerlessHandler.class, RecursingHandler.class})
    void aLineAPluginFailsOnIsRefusedAsTheMonitorWouldRefuseIt(Class<?> plugin) throws IOException {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("PLUGINS", "{" + plugin.getName() + ": 500}")));

        List<String> problems = FeedCommand.problems(PluginSet.load(settings),
                new ObjectMapper().readTree("{\"uuid\": \"u1\", \"test\": \"cluster\"}"));

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.getFirst().endsWith(" request, not sent: The plugin " + plugin.getSimpleName()
                + " failed to handle the request"), problems.toString());
    }

    @Test
    void aSendKafkaDoesNotAcknowledgeIsReportedWithItsLine() throws IOException {
        BulkFeed feed = new BulkFeed(new Json(JsonLimits.from(SETTINGS)), request -> FeedCommand.problems(PLUGINS, request),
                (topic, bytes) -> CompletableFuture.failedFuture(new IllegalStateException("broker gone")), "demo.incoming",
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertFalse(feed.feed(new ByteArrayInputStream("{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c\"}".getBytes(StandardCharsets.UTF_8)),
                Duration.ofSeconds(1)));
        assertTrue(err.toString().contains("line 1: not sent: broker gone"), err.toString());
    }

    @Test
    void itStopsAtTheFirstLineKafkaDoesNotAnswerForInsteadOfWaitingOnEveryLine() throws IOException {
        List<String> tried = new ArrayList<>();
        BulkFeed feed = new BulkFeed(new Json(JsonLimits.from(SETTINGS)), request -> FeedCommand.problems(PLUGINS, request),
                (topic, bytes) -> {
                    tried.add(new String(bytes, StandardCharsets.UTF_8));
                    return CompletableFuture.failedFuture(new TimeoutException("Topic demo.incoming not present in metadata after 1000 ms."));
                }, "demo.incoming", new PrintWriter(out, true), new PrintWriter(err, true));
        String input = String.join("\n",
                "{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c1\"}",
                "{\"url\": \"http://b.example/\", \"appid\": \"app\", \"crawlid\": \"c2\"}",
                "{\"url\": \"http://c.example/\", \"appid\": \"app\", \"crawlid\": \"c3\"}");

        assertFalse(feed.feed(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(1)));

        assertEquals(1, tried.size(), tried.toString());
        assertTrue(err.toString().contains("line 1: not sent: Topic demo.incoming not present in metadata after 1000 ms."), err.toString());
        assertTrue(err.toString().contains("Stopped after line 1: Kafka did not answer it; the lines after it were not read"),
                err.toString());
        assertTrue(out.toString().startsWith("Fed 0 of 1 requests to Kafka topic demo.incoming; 0 refused, 1 not acknowledged"),
                out.toString());
    }

    @Test
    void noLineIsReadAfterTheOneKafkaLeftUnanswered() throws IOException {
        BulkFeed feed = new BulkFeed(new Json(JsonLimits.from(SETTINGS)), request -> FeedCommand.problems(PLUGINS, request),
                (topic, bytes) -> CompletableFuture.failedFuture(new TimeoutException("Topic demo.incoming not present in metadata")),
                "demo.incoming", new PrintWriter(out, true), new PrintWriter(err, true));
        InputStream typing = new SequenceInputStream(new ByteArrayInputStream(
                "{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c1\"}\n".getBytes(StandardCharsets.UTF_8)),
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("a second line was read: from a terminal, feed would wait for someone to type it");
                    }
                });

        assertFalse(feed.feed(typing, Duration.ofSeconds(1)));

        assertTrue(err.toString().contains("Stopped after line 1: Kafka did not answer"), err.toString());
    }

    @Test
    void aLineLongerThanAnyArrayIsRefusedWithoutBeingKeptAndTheLinesAfterItAreSent() throws IOException {
        long length = (1L << 31) + 10;
        String good = "{\"url\": \"http://a.example/\", \"appid\": \"app\", \"crawlid\": \"c\"}";
        BulkFeed feed = new BulkFeed(new Json(JsonLimits.from(SETTINGS)), request -> FeedCommand.problems(PLUGINS, request),
                (topic, bytes) -> {
                    sent.add(new String(bytes, StandardCharsets.UTF_8));
                    return CompletableFuture.completedFuture(null);
                }, "demo.incoming", new PrintWriter(out, true), new PrintWriter(err, true));

        assertFalse(feed.feed(longLineThen(length, good + "\n" + good), Duration.ofSeconds(1)));

        assertEquals(List.of(good, good), sent);
        assertEquals("line 1: not read: its " + length + " bytes are more than the JSON document limit of "
                + SETTINGS.getLong("JSON_MAX_DOCUMENT_BYTES") + " bytes (JSON_MAX_DOCUMENT_BYTES)\n", err.toString());
        assertTrue(out.toString().startsWith("Fed 2 of 3 requests to Kafka topic demo.incoming; 1 refused, 0 not acknowledged"),
                out.toString());
    }

    /** A line of {@code length} bytes of {@code a}, a line feed, then {@code rest}: made as it is read, never held whole. */
    private static InputStream longLineThen(long length, String rest) {
        byte[] tail = ("\n" + rest).getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            private long served;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (served < length) {
                    int n = (int) Math.min(len, length - served);
                    Arrays.fill(b, off, off + n, (byte) 'a');
                    served += n;
                    return n;
                }
                int at = (int) (served - length);
                if (at >= tail.length) {
                    return -1;
                }
                int n = Math.min(len, tail.length - at);
                System.arraycopy(tail, at, b, off, n);
                served += n;
                return n;
            }
        };
    }

    private boolean feed(String input) throws IOException {
        BulkFeed feed = new BulkFeed(new Json(JsonLimits.from(SETTINGS)), request -> FeedCommand.problems(PLUGINS, request),
                (topic, bytes) -> {
                    sent.add(new String(bytes, StandardCharsets.UTF_8));
                    return CompletableFuture.completedFuture(null);
                }, "demo.incoming", new PrintWriter(out, true), new PrintWriter(err, true));
        return feed.feed(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(1));
    }
}
