package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

/**
 * docs/architecture.md, guarantee 6: 10,000 hostile records mixed with 1,000 valid crawl requests (a tenth of them with
 * regexes that backtrack catastrophically in other engines). The monitor keeps running, queues all
 * 1,000, and counts and publishes every hostile record as rejected.
 */
@ExtendWith(SharedStack.class)
class HostileInputTest {

    private static final int HOSTILE = 10_000;
    private static final int VALID = 1_000;
    private static final long SEED = 20_240_301L;
    private static final Duration WAIT = Duration.ofMinutes(3);

    private final EmbeddedStack stack;

    HostileInputTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void hostileRecordsAreRejectedAndTheValidOnesAllQueued() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("LOG_LEVEL", "ERROR");
        String spider = MonitorSettings.unique("fuzz");
        List<byte[]> records = new ArrayList<>(new HostileRecords(SEED).make(HOSTILE));
        for (int i = 0; i < VALID; i++) {
            String regexes = i % 10 == 0 ? ",\"allow_regex\":[\"(a+)+$\",\"^(([a-z])+.)+[A-Z]([a-z])+$\"],\"deny_regex\":[\"(x+x+)+y\"]" : "";
            records.add(("{\"url\":\"http://www.fuzz-example.com/page/" + i + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\""
                    + spider + "\",\"priority\":" + (1 + i % 100) + regexes + "}").getBytes(StandardCharsets.UTF_8));
        }
        Collections.shuffle(records, new Random(SEED));

        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap(), 12 << 20);
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            for (int from = 0; from < records.size(); from += 500) {
                kafka.send(settings.incomingTopic(), records.subList(from, Math.min(records.size(), from + 500)));
            }

            Awaitility.await().atMost(WAIT).until(() -> monitor.counter("kafka.monitor.records.consumed") == HOSTILE + VALID);
            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":fuzz-example.com:queue") == VALID);
            // records.consumed counts a batch once it is decided; its rejections are counted after its Redis writes
            Awaitility.await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(HOSTILE, rejected(monitor), "every hostile record is counted as a failure");
                assertEquals(VALID, monitor.counter("kafka.monitor.requests.accepted", "plugin", "ScraperHandler"));
            });
            List<String> published = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> values.size() >= HOSTILE);
            assertEquals(HOSTILE, published.size(), "every hostile record is on the rejected topic");

            kafka.send(settings.incomingTopic(), List.of(("{\"url\":\"http://www.after-fuzz-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\","
                    + "\"spiderid\":\"" + spider + "\"}").getBytes(StandardCharsets.UTF_8)));
            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":after-fuzz-example.com:queue") == 1);
            assertEquals(Health.Status.UP, monitor.health().status(), "the monitor still runs");
        }
    }

    @Test
    void aRecordRedisRefusesForAKeyOfAnotherTypeIsRejectedAndTheRestOfItsBatchQueued() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("LOG_LEVEL", "ERROR");
        String broken = MonitorSettings.unique("broken");
        String fine = MonitorSettings.unique("fine");
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String spider = i % 2 == 0 ? broken : fine;
            records.add(("{\"url\":\"http://www.mixed-example.com/" + i + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\","
                    + "\"spiderid\":\"" + spider + "\"}").getBytes(StandardCharsets.UTF_8));
        }

        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap(), 1 << 20);
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            // a key the enqueue script reads before it writes anything, of another type: Redis refuses every write of the
            // broken spider's seeds with WRONGTYPE, as often as it is asked (a failure for good, not an outage)
            redis.sync().set(Keyspace.blacklist(broken), "not a set");
            kafka.send(settings.incomingTopic(), records);

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(fine + ":mixed-example.com:queue") == 2);
            List<String> published = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT,
                    values -> values.stream().filter(value -> value.contains(broken)).count() >= 2);
            assertEquals(2, published.stream().filter(value -> value.contains(broken) && value.contains("WRONGTYPE")).count(),
                    published.toString());
            assertEquals(Health.Status.UP, monitor.health().status(), "the monitor still runs");
        }
    }

    @Test
    void aRecordThatIsNotJsonIsRejectedWithWhatWasWrongNotTheParsersSettings() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("LOG_LEVEL", "ERROR");

        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap(), 1 << 20)) {
            kafka.send(settings.incomingTopic(), List.of("{\"url\": NaN}".getBytes(StandardCharsets.UTF_8),
                    "{\"url\": 1} // done".getBytes(StandardCharsets.UTF_8)));

            List<String> published = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> values.size() >= 2);
            assertEquals(List.of("[\"Invalid JSON: Non-standard token 'NaN', at line 1, column 12\"]",
                            "[\"Invalid JSON: Unexpected character ('/' (code 47)): maybe a (non-standard) comment?, at line 1, column 12\"]"),
                    published.stream().map(HostileInputTest::violations).toList());
        }
    }

    /**
     * Requests at the edges, each followed by a good one: one just under {@code JSON_MAX_DOCUMENT_BYTES} is queued whole; a
     * number beyond a double, a word for a number and an {@code expires} in the past are each rejected naming why.
     */
    @Test
    void requestsAtTheEdgesAreDecidedOneByOneAndTheGoodOnesBehindThemQueued() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("LOG_LEVEL", "ERROR");
        String spider = MonitorSettings.unique("edge");
        String crawl = "{\"url\":\"http://www.edge-example.com/%s\",\"appid\":\"testapp\",\"crawlid\":\"%s\",\"spiderid\":\"" + spider + "\"%s}";
        Map<String, String> edges = new LinkedHashMap<>();
        edges.put("large", ",\"attrs\":{\"blob\":\"" + "x".repeat(900_000) + "\"}");
        edges.put("infinite", ",\"priority\":1e400");
        edges.put("wordy", ",\"maxdepth\":\"x\"");
        edges.put("expired", ",\"expires\":-1");
        List<byte[]> records = new ArrayList<>();
        edges.forEach((crawlid, fields) -> {
            records.add(crawl.formatted(crawlid, crawlid, fields).getBytes(StandardCharsets.UTF_8));
            records.add(crawl.formatted("after-" + crawlid, "good", "").getBytes(StandardCharsets.UTF_8));
        });

        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap(), 2 << 20);
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            kafka.send(settings.incomingTopic(), records);

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":edge-example.com:queue") == 5);
            assertTrue(redis.sync().zrange(spider + ":edge-example.com:queue", 0, -1).stream()
                    .anyMatch(member -> member.contains("x".repeat(900_000))), "the large request is queued whole");
            List<String> published = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> values.size() >= 3);
            assertEquals("[\"priority: must be an integer, was inf\",\"priority: must be at most 100, was inf\"]",
                    rejectedFor(published, "infinite").get("violations").toString());
            assertEquals("[\"maxdepth: must be an integer, was \\\"x\\\"\"]", rejectedFor(published, "wordy").get("violations").toString());
            assertEquals("The crawl has expired", rejectedFor(published, "expired").get("reason").asText());
        }
    }

    /**
     * Ids holding half of a surrogate pair (JSON's {@code \\ud800}), which UTF-8 would write to Redis as {@code ?}: the queue
     * {@code <spiderid>?:<domain>:queue}, the dupefilter of the crawlid {@code ?x}, the info job of another crawl. Each kind of
     * request is rejected naming the field (docs/api.md "Rules every request follows"), and the good request behind them queued.
     */
    @Test
    void idsThatAreNotUnicodeTextAreRejectedNamingTheFieldNotWrittenToRedisAsQuestionMarks() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("LOG_LEVEL", "ERROR");
        String spider = MonitorSettings.unique("halfpair");
        String half = "\\ud800";
        List<String> requests = List.of(
                "{\"url\":\"http://www.pair-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + half + "\"}",
                "{\"url\":\"http://www.pair-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"\\udc00x\",\"spiderid\":\"" + spider + "\"}",
                "{\"url\":\"http://www.pair-example.com/\",\"appid\":\"test" + half + "\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}",
                "{\"action\":\"info\",\"uuid\":\"u1\",\"appid\":\"testapp\",\"crawlid\":\"\\udc00x\",\"spiderid\":\"" + spider + "\"}",
                "{\"action\":\"stop\",\"uuid\":\"u2\",\"appid\":\"testapp\",\"spiderid\":\"" + spider + half + "\"}",
                "{\"stats\":\"queue\",\"uuid\":\"u" + half + "\",\"appid\":\"testapp\"}",
                "{\"action\":\"blacklist-update\",\"uuid\":\"u3\",\"appid\":\"testapp\",\"domain\":\"pair" + half + ".com\"}",
                "{\"url\":\"http://www.pair-example.com/good\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}");
        String halfAt = "is not Unicode text: \\ud800 at character %d is half of a surrogate pair";
        String lowAt = "is not Unicode text: \\udc00 at character 1 is half of a surrogate pair";

        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap(), 1 << 20);
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            kafka.send(settings.incomingTopic(), requests.stream().map(text -> text.getBytes(StandardCharsets.UTF_8)).toList());

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":pair-example.com:queue") >= 1);
            Awaitility.await().atMost(WAIT).until(() -> monitor.counter("kafka.monitor.records.consumed") == requests.size());
            Awaitility.await().atMost(WAIT).until(() -> rejected(monitor) + accepted(monitor) == requests.size());
            double refusals = rejected(monitor);
            List<String> published = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> values.size() >= refusals);
            assertEquals(List.of("appid: " + halfAt.formatted(5), "crawlid: " + lowAt, "crawlid: " + lowAt, "domain: " + halfAt.formatted(5),
                            "spiderid: " + halfAt.formatted(spider.length() + 1), "spiderid: " + halfAt.formatted(spider.length() + 1),
                            "uuid: " + halfAt.formatted(2)),
                    published.stream().flatMap(entry -> tree(entry).get("violations").valueStream()).map(JsonNode::asText).sorted().toList());
            assertEquals(1, redis.sync().zcard(spider + ":pair-example.com:queue"), "only the good request is queued");
            assertEquals(List.of(), Stream.concat(redis.sync().keys("*" + spider + "*").stream(), redis.sync().keys("zk:*:pair*").stream())
                    .filter(key -> key.contains("?")).toList(), "no key holds a '?' for half a pair");
        }
    }

    /** The entry of the rejected topic for the request of {@code crawlid}. */
    private static JsonNode rejectedFor(List<String> published, String crawlid) {
        return published.stream().map(HostileInputTest::tree).filter(entry -> entry.get("record").asText().contains("\"crawlid\":\"" + crawlid + "\""))
                .findFirst().orElseThrow(() -> new AssertionError(crawlid + " is not among " + published));
    }

    private static JsonNode tree(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError(text, e);
        }
    }

    private static String violations(String rejected) {
        return tree(rejected).get("violations").toString();
    }

    private static double accepted(RunningMonitor monitor) {
        return Stream.of("ScraperHandler", "ActionHandler", "StatsHandler", "ZookeeperHandler")
                .mapToDouble(plugin -> monitor.counter("kafka.monitor.requests.accepted", "plugin", plugin)).sum();
    }

    private static double rejected(RunningMonitor monitor) {
        return monitor.counter("kafka.monitor.requests.rejected", "reason", "unreadable")
                + monitor.counter("kafka.monitor.requests.rejected", "reason", "invalid")
                + monitor.counter("kafka.monitor.requests.rejected", "reason", "refused");
    }
}
