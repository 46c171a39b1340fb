package org.scrapycluster.kafkamonitor.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;

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
        assertTrue(err.toString().contains("Stopped after line 1: Kafka did not answer within 1 s; the lines after it were not read"),
                err.toString());
        assertTrue(out.toString().startsWith("Fed 0 of 1 requests to Kafka topic demo.incoming; 0 refused, 1 not acknowledged"),
                out.toString());
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
