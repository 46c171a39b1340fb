package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueResult;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.url.RequestFingerprint;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.scrapycluster.kafkamonitor.rejection.RejectionKind;
import org.scrapycluster.kafkamonitor.testing.Fixtures;
import org.scrapycluster.kafkamonitor.testing.PrivateRedis;

/**
 * Every request fixture of docs/compatibility.md §2.4 through the monitor's decision and Redis writes, against a real
 * Redis of its own that is emptied before each: a valid one leaves exactly the keys of docs/compatibility.md §2.5 (and
 * the additive keys of docs/architecture.md), checked key by key and field by field; an invalid
 * one is rejected with the violations of its own schema and writes nothing.
 */
class RequestFixtureEffectsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TS = Pattern.compile("\"ts\":([0-9]{10}\\.[0-9]{6})}$");

    @RegisterExtension
    static final PrivateRedis REDIS = new PrivateRedis("fixture-effects");


    static Stream<String> valid() {
        return Fixtures.names("requests/valid").stream();
    }

    static Stream<String> invalid() {
        return Fixtures.names("requests/invalid").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void valid(String file) throws Exception {
        JsonNode fixture = Fixtures.read("requests/valid/" + file);
        JsonNode expected = fixture.get("redis");

        long before = System.currentTimeMillis();
        Disposition disposition = process(settings(fixture), JSON.writeValueAsBytes(fixture.get("request")));
        long after = System.currentTimeMillis() + 1;

        if (expected.has("refused")) {
            Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
            assertEquals(RejectionKind.REFUSED, rejection.kind());
            assertEquals(expected.get("refused").asText(), rejection.reason());
            assertEquals(texts(expected.get("details")), rejection.details());
            assertEquals(Set.of(), keys(), "a refused request writes nothing");
        } else if (expected.has("queue")) {
            assertInstanceOf(Disposition.Accepted.class, disposition);
            assertQueued(fixture.get("validated"), expected, before, after);
        } else {
            assertInstanceOf(Disposition.Accepted.class, disposition);
            String key = expected.get("key").asText();
            Set<String> written = new TreeSet<>(Set.of(key, Keyspace.JOB_WAITING.fill(key), Keyspace.JOBS_SIGNAL));
            if (expected.has("blacklist")) {
                // a stop of a crawl: the crawl in its spider's blacklist, the Kafka monitor's own (docs/differences.md)
                String blacklist = expected.get("blacklist").get("key").asText();
                written.add(blacklist);
                assertEquals(Set.of(expected.get("blacklist").get("member").asText()), REDIS.connection().sync().smembers(blacklist));
            }
            assertEquals(written, new TreeSet<>(keys()));
            assertEquals(expected.get("value").asText(), REDIS.connection().sync().get(key));
            assertEquals(List.of(expected.get("value").asText()), REDIS.connection().sync().lrange(Keyspace.JOB_WAITING.fill(key), 0, -1),
                    "the request waits on its job key");
            assertEquals(List.of(key), REDIS.connection().sync().lrange("jobs:signal", 0, -1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalid(String file) throws Exception {
        JsonNode fixture = Fixtures.read("requests/invalid/" + file);

        Disposition disposition = process(settings(fixture), JSON.writeValueAsBytes(fixture.get("request")));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals(RejectionKind.INVALID, rejection.kind());
        assertEquals("Did not find schema to validate request", rejection.reason());
        assertEquals(Optional.of(fixture.get("schema").asText()), rejection.schema(), "the violations are those of the request's own schema");
        assertEquals(texts(fixture.get("violations")), rejection.details());
        assertEquals(Set.of(), keys());
    }

    @Test
    void aCrawlThatExpiresLaterHasItsTimeoutKeyWrittenAndSignalled() throws Exception {
        long expires = System.currentTimeMillis() / 1000 + 3600;
        String request = "{\"url\":\"https://www.example.org/start\",\"appid\":\"testapp\",\"crawlid\":\"c9\",\"expires\":" + expires + "}";

        assertInstanceOf(Disposition.Accepted.class, process(Settings.defaults("kafka-monitor"), request.getBytes(StandardCharsets.UTF_8)));

        assertEquals(Long.toString(expires), REDIS.connection().sync().get("timeout:link:testapp:c9"));
        assertEquals(List.of("timeout:link:testapp:c9"), REDIS.connection().sync().lrange("jobs:signal", 0, -1));
        assertEquals(Long.toString(expires), REDIS.connection().sync().hget("crawl:link:testapp:c9", "expires"));
        assertEquals(1, REDIS.connection().sync().zcard("link:example.org:queue"));
    }

    @Test
    void aSeedFedTwiceToOneCrawlIsQueuedOnce() {
        byte[] seed = "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\"}".getBytes(StandardCharsets.UTF_8);
        Settings settings = Settings.defaults("kafka-monitor");

        assertInstanceOf(Disposition.Accepted.class, process(settings, seed));
        assertInstanceOf(Disposition.Accepted.class, process(settings, seed), "accepted, but not queued again");

        assertEquals(1, REDIS.connection().sync().zcard("link:example.com:queue"));
        assertEquals("1", REDIS.connection().sync().hget("crawl:link:testapp:c1", "pending"));
    }

    @Test
    void aSeedFedAgainWithAnotherExpiryOverwritesTheTimeoutKeyAndSignalsIt() {
        long first = System.currentTimeMillis() / 1000 + 3600;
        long second = first + 1800;
        String seed = "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"expires\":";
        Settings settings = Settings.defaults("kafka-monitor");

        assertInstanceOf(Disposition.Accepted.class, process(settings, (seed + first + "}").getBytes(StandardCharsets.UTF_8)));
        assertInstanceOf(Disposition.Accepted.class, process(settings, (seed + second + "}").getBytes(StandardCharsets.UTF_8)),
                "accepted, but not queued again");

        assertEquals(Long.toString(second), REDIS.connection().sync().get("timeout:link:testapp:c1"));
        assertEquals(List.of("timeout:link:testapp:c1", "timeout:link:testapp:c1"), REDIS.connection().sync().lrange("jobs:signal", 0, -1));
        assertEquals(1, REDIS.connection().sync().zcard("link:example.com:queue"));
    }

    @Test
    void aSeedOfAStoppedCrawlIsRefused() {
        REDIS.connection().sync().sadd("link:blacklist", "testapp||c1");

        Disposition disposition = process(Settings.defaults("kafka-monitor"),
                "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\"}".getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals("The crawl was stopped or has expired", rejection.reason());
        assertEquals(List.of("crawlid: the crawl testapp/c1 is on the blacklist of spider link (stopped or expired); use a new crawlid"),
                rejection.details());
        assertEquals(Set.of("link:blacklist"), keys());
    }

    @Test
    void aDomainUpdateWithoutHitsOrWindowIsRefusedWithTheReason() {
        Disposition disposition = process(Settings.defaults("kafka-monitor"),
                "{\"uuid\":\"u1\",\"appid\":\"testapp\",\"domain\":\"cnn.com\",\"action\":\"domain-update\",\"hits\":10}"
                        .getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals(RejectionKind.REFUSED, rejection.kind());
        assertEquals("'hits' and 'window' not set for domain update", rejection.reason());
        assertEquals(List.of("window: must be set, and not 0, for a domain-update (0 is also what it is when left out)"), rejection.details());
        assertEquals(Optional.of(new Rejection.Recipient("testapp", "u1")), rejection.recipient());
        assertEquals(Set.of(), keys());
    }

    @Test
    void aDomainUpdateWhoseHitsIsAnIntegerBeyondALongIsNotTakenForZero() {
        Disposition disposition = process(Settings.defaults("kafka-monitor"),
                ("{\"uuid\":\"u2\",\"appid\":\"testapp\",\"domain\":\"cnn.com\",\"action\":\"domain-update\","
                        + "\"hits\":18446744073709551616,\"window\":60}").getBytes(StandardCharsets.UTF_8));

        assertInstanceOf(Disposition.Accepted.class, disposition, "2^64 is not 0, though its low 64 bits are");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-60", "31536001", "18446744073709551616"})
    void aDomainUpdateWhoseWindowIsNotFromASecondToAYearIsRefusedWithTheReason(String window) {
        Disposition disposition = process(Settings.defaults("kafka-monitor"),
                ("{\"uuid\":\"u3\",\"appid\":\"testapp\",\"domain\":\"cnn.com\",\"action\":\"domain-update\","
                        + "\"hits\":10,\"window\":" + window + "}").getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals(RejectionKind.REFUSED, rejection.kind());
        assertEquals("'window' out of range for domain update", rejection.reason());
        assertEquals(List.of("window: must be from 1 to 31536000 seconds (a year), was " + window), rejection.details());
        assertEquals(Set.of(), keys());
    }

    @Test
    void aDomainWithoutAnAsciiFormIsRefusedWithTheReason() {
        String domain = "ü".repeat(64) + ".example";
        Disposition disposition = process(Settings.defaults("kafka-monitor"),
                ("{\"uuid\":\"u4\",\"appid\":\"testapp\",\"domain\":\"" + domain + "\",\"action\":\"blacklist-update\"}")
                        .getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, disposition).rejection();
        assertEquals(RejectionKind.REFUSED, rejection.kind());
        assertEquals("'domain' has no ASCII form (IDNA)", rejection.reason());
        assertEquals(List.of("domain: has no ASCII form (IDNA): The label in the input is too long"), rejection.details());
        assertEquals(Set.of(), keys());
    }

    @Test
    void aSeedWhoseQueueNameIsTakenByAKeyOfAnotherTypeIsRefusedNotLost() {
        // the crawls of app "queue" under spider <d> are the set crawls:<d>:queue, the queue name of spider "crawls" for <d>
        String domain = "taken" + System.nanoTime() + ".com";
        Settings settings = Settings.defaults("kafka-monitor");
        assertInstanceOf(Disposition.Accepted.class, process(settings, ("{\"url\":\"http://a.com/\",\"appid\":\"queue\","
                + "\"crawlid\":\"c1\",\"spiderid\":\"" + domain + "\"}").getBytes(StandardCharsets.UTF_8)));

        Disposition clash = process(settings, ("{\"url\":\"http://" + domain + "/\",\"appid\":\"testapp\",\"crawlid\":\"c2\","
                + "\"spiderid\":\"crawls\"}").getBytes(StandardCharsets.UTF_8));

        Rejection rejection = assertInstanceOf(Disposition.Rejected.class, clash).rejection();
        assertEquals("The crawl request cannot be queued", rejection.reason());
        assertTrue(rejection.details().getFirst().startsWith("request: Redis refuses a key of it, such as one of another type under its name"),
                rejection.details().toString());
        assertTrue(rejection.details().getFirst().endsWith(": WRONGTYPE Operation against a key holding the wrong kind of value"),
                rejection.details().toString());
        assertEquals("set", REDIS.connection().sync().type("crawls:" + domain + ":queue"), "the app's crawls are untouched");
    }

    /** The monitor's path for one record: decide, write what was accepted, settle the outcome. */
    private static Disposition process(Settings settings, byte[] record) {
        RequestIntake intake = new RequestIntake(new Json(JsonLimits.from(settings)), PluginSet.load(settings), Clock.systemUTC());
        Disposition disposition = intake.take(record);
        if (disposition instanceof Disposition.Accepted accepted) {
            RedisBatchWriter.Writes writes = new RedisBatchWriter(REDIS.connection(), false).start();
            writes.add(accepted.handling());
            RedisBatchWriter.Filed filed = writes.finish().getFirst();
            assertEquals(Optional.empty(), filed.refusal(), "every write of a fixture is taken");
            Optional<EnqueueResult> outcome = filed.enqueued();
            return outcome.map(o -> SeedOutcomes.settle(accepted, o)).orElse(accepted);
        }
        return disposition;
    }

    private static void assertQueued(JsonNode validated, JsonNode expected, long before, long after) throws Exception {
        String queue = expected.get("queue").asText();
        String spider = validated.get("spiderid").asText();
        String domain = queue.substring(spider.length() + 1, queue.length() - ":queue".length());
        String crawl = spider + ":" + validated.get("appid").asText() + ":" + validated.get("crawlid").asText();
        String dupefilter = spider + ":dupefilter:" + validated.get("crawlid").asText();
        assertEquals(new TreeSet<>(Set.of(queue, dupefilter, spider + ":active_domains", spider + ":active_domains:marker", "crawl:" + crawl,
                "crawls:" + spider + ":" + validated.get("appid").asText(), "crawls:active", spider + ":queue_lengths")), keys(),
                "exactly these keys");
        assertEquals(Map.of(domain, "1"), REDIS.connection().sync().hgetall(spider + ":queue_lengths"), "the queue's length as we left it");

        List<ScoredValue<String>> members = REDIS.connection().sync().zrangeWithScores(queue, 0, -1);
        assertEquals(1, members.size());
        assertEquals(expected.get("score").asDouble(), members.getFirst().getScore(), "score = -priority");
        JsonNode member = JSON.readTree(members.getFirst().getValue());
        List<String> fields = new ArrayList<>();
        validated.fieldNames().forEachRemaining(fields::add);
        fields.add("ts");
        assertEquals(fields, names(member), "the validated request's fields in order, then ts");
        validated.properties().forEach(field -> assertEquals(field.getValue(), member.get(field.getKey()), field.getKey()));
        Matcher written = TS.matcher(members.getFirst().getValue());
        assertTrue(written.find(), "ts is written as epoch seconds with microseconds: " + members.getFirst().getValue());
        BigDecimal ts = new BigDecimal(written.group(1));
        assertTrue(ts.compareTo(BigDecimal.valueOf(before, 3)) >= 0 && ts.compareTo(BigDecimal.valueOf(after, 3)) <= 0,
                "ts " + ts + " is the time of the intake");

        String fetched = validated.get("url").asText().contains("://") ? validated.get("url").asText() : "http://" + validated.get("url").asText();
        assertEquals(Set.of(RequestFingerprint.of(fetched)), REDIS.connection().sync().smembers(dupefilter));
        long ttl = REDIS.connection().sync().ttl(dupefilter);
        assertTrue(ttl > 590 && ttl <= 600, "DUPEFILTER_TIMEOUT: " + ttl);

        assertEquals(List.of(domain), REDIS.connection().sync().zrange(spider + ":active_domains", 0, -1));
        Map<String, String> accounting = new LinkedHashMap<>(REDIS.connection().sync().hgetall("crawl:" + crawl));
        long updated = Long.parseLong(accounting.remove("updated"));
        assertTrue(updated >= before);
        assertEquals(updated, Long.parseLong(accounting.remove("started")), "a crawl starts when its first request is filed");
        assertEquals(Map.of(domain + "|" + validated.get("priority").asText(), "1", "pending", "1",
                "expires", validated.get("expires").asText()), accounting);
        assertEquals(Set.of(validated.get("crawlid").asText()), REDIS.connection().sync().smembers("crawls:" + spider + ":" + validated.get("appid").asText()));
        assertEquals(List.of(crawl), REDIS.connection().sync().zrange("crawls:active", 0, -1));
    }

    private static Settings settings(JsonNode fixture) {
        Map<String, String> values = new LinkedHashMap<>();
        fixture.path("settings").properties().forEach(setting -> values.put(setting.getKey(), setting.getValue().asText()));
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), values));
    }

    private static Set<String> keys() {
        return new TreeSet<>(REDIS.connection().sync().keys("*"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
