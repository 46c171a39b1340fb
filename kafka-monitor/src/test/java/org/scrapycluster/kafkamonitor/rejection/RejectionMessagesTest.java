package org.scrapycluster.kafkamonitor.rejection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.request.ListedDetails;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.ValidationResult;
import org.scrapycluster.common.request.Violation;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** The rejected-topic entry and the error answer of docs/architecture.md, guarantee 5, and the settings that turn them off. */
class RejectionMessagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The largest message a producer sends and a broker takes unless configured otherwise ({@code max.request.size}, {@code message.max.bytes}). */
    private static final int KAFKA_DEFAULT_MAX_REQUEST_SIZE = 1 << 20;
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_709_288_600, 750_000_000), ZoneOffset.UTC);

    @Test
    void anInvalidRequestWithAppidAndUuidGoesToTheRejectedTopicAndIsAnswered() throws Exception {
        String text = "{\"uuid\":\"u-17\",\"appid\":\"app1\",\"action\":\"info\"}";
        Rejection rejection = Rejection.invalid(JSON.readTree(text), "action", violation("spiderid", "is required"));

        List<ProducerRecord<String, byte[]>> messages = messages(Map.of()).of("demo.incoming", 1, 42, bytes(text), rejection);

        assertEquals(List.of("demo.incoming_rejected", "demo.outbound_firehose"), messages.stream().map(ProducerRecord::topic).toList());
        assertEquals(JSON.readTree("""
                {"reason":"Did not find schema to validate request","schema":"action","violations":["spiderid: is required"],
                 "record":"{\\"uuid\\":\\"u-17\\",\\"appid\\":\\"app1\\",\\"action\\":\\"info\\"}","record_bytes":46,
                 "topic":"demo.incoming","partition":1,"offset":42,"server_time":1709288600}"""), tree(messages.get(0)));
        assertEquals(JSON.readTree("""
                {"appid":"app1","uuid":"u-17","server_time":1709288600,
                 "error":{"message":"Did not find schema to validate request","details":["spiderid: is required"]}}"""), tree(messages.get(1)));
        assertEquals(List.of(CLOCK.millis(), CLOCK.millis()), messages.stream().map(ProducerRecord::timestamp).toList(),
                "stamped with the monitor's clock (Redis's), not left to the producer's host clock");
    }

    @Test
    void anInvalidRequestWithAnIdLongerThanAnyClientCorrelatesGoesOnlyToTheRejectedTopic() throws Exception {
        String longest = "u".repeat(Rejection.Recipient.LONGEST);
        for (String uuid : List.of(longest, longest + "u")) {
            String text = "{\"uuid\":\"" + uuid + "\",\"appid\":\"app1\",\"action\":\"info\"}";
            Rejection rejection = Rejection.invalid(JSON.readTree(text), "action", violation("uuid", "is too long"));
            List<String> topics = messages(Map.of()).of("demo.incoming", 1, 42, bytes(text), rejection).stream()
                    .map(ProducerRecord::topic).toList();
            List<String> expected = uuid.equals(longest) ? List.of("demo.incoming_rejected", "demo.outbound_firehose")
                    : List.of("demo.incoming_rejected");
            assertEquals(expected, topics, uuid.length() + " characters");
        }
    }

    @Test
    void anInvalidRequestIsLoggedWithoutItsCookieButPublishedAsItCame() throws Exception {
        String text = "{\"url\": \"http://example.com/\", \"appid\": \"a\", \"cookie\": \"session=abc123\"}";
        Rejection rejection = Rejection.invalid(JSON.readTree(text), "scraper", violation("appid", "must be at least 3 characters long, was 1"));
        RejectionMessages messages = messages(Map.of());

        String logged = messages.logged(bytes(text), rejection);

        assertEquals("{\"url\":\"http://example.com/\",\"appid\":\"a\",\"cookie\":\"[redacted]\"}", logged);
        assertEquals(text, tree(messages.of("demo.incoming", 0, 1, bytes(text), rejection).get(0)).path("record").asText(),
                "the rejected topic has the record's own text");
        String withoutCookie = "{\"url\": \"http://example.com/\", \"appid\": \"a\"}";
        assertEquals(withoutCookie, messages.logged(bytes(withoutCookie), rejection), "as it came when there is nothing to hide");
        assertEquals("{\"cookie\": 1", messages.logged(bytes("{\"cookie\": 1"), Rejection.unreadable("Unexpected end-of-input")),
                "a value without quotes, in text that could not be read, is not found");
        assertEquals("{\"url\": \"http://example.com/\", \"cookie\": \"[redacted]\", \"bogus\":",
                messages.logged(bytes("{\"url\": \"http://example.com/\", \"cookie\": \"session=abc123\", \"bogus\":"),
                        Rejection.unreadable("Unexpected end-of-input")), "a quoted one is, in text that could not be read");
        assertEquals("", messages.logged(null, Rejection.unreadable("No content")), "a record without a value (a tombstone)");
        String array = "[{\"url\": \"http://example.com/\", \"cookie\": \"session=abc123\"}]";
        assertEquals("[{\"url\": \"http://example.com/\", \"cookie\": \"[redacted]\"}]",
                messages.logged(bytes(array), Rejection.uncheckable(JSON.readTree(array), "not a JSON object")),
                "JSON that is not an object has its text redacted");
        assertEquals("{\"url\":\"http://ex", messages(Map.of("REJECTED_RECORD_MAX_CHARS", "17")).logged(bytes(text), rejection),
                "cut as the rejected topic's text is");
        assertEquals("{\"appid\":\"a\",\"cookie\":\"[redacted]\"}",
                messages.logged(bytes("{\"appid\": \"a\", \"\\u0063ookie\": \"session=abc123\"}"), rejection),
                "a name written with an escape is the same name");
    }

    @Test
    void textThatIsNotJsonIsPublishedCutAndEscapedButNotAnswered() throws Exception {
        byte[] value = new byte[5000];
        java.util.Arrays.fill(value, (byte) 0xfe);

        List<ProducerRecord<String, byte[]>> messages = messages(Map.of("REJECTED_RECORD_MAX_CHARS", "12"))
                .of("demo.incoming", 0, 7, value, Rejection.unreadable("Input is not valid UTF-8: bad byte 0xfe at offset 0"));

        assertEquals(1, messages.size());
        JsonNode rejected = tree(messages.getFirst());
        assertEquals("Unparseable JSON Received", rejected.get("reason").asText());
        assertEquals("\\xfe\\xfe\\xfe", rejected.get("record").asText());
        assertEquals(5000, rejected.get("record_bytes").asInt());
        assertEquals("[\"Input is not valid UTF-8: bad byte 0xfe at offset 0\"]", rejected.get("violations").toString());
        assertEquals(false, rejected.has("schema"));
    }

    @Test
    void withAppidTopicsTheAnswerAlsoGoesToTheAppsTopicWhenItsNameAllowsIt() throws Exception {
        RejectionMessages messages = messages(Map.of("KAFKA_APPID_TOPICS", "true"));

        assertEquals(List.of("demo.incoming_rejected", "demo.outbound_firehose", "demo.outbound_app1"),
                topics(messages.of("demo.incoming", 0, 1, bytes("{}"), refused("app1"))));
        assertEquals(List.of("demo.incoming_rejected", "demo.outbound_firehose"),
                topics(messages.of("demo.incoming", 0, 1, bytes("{}"), refused("app/1"))), "an appid that cannot name a topic");
    }

    @Test
    void anAppTopicNameLongerThanKafkaTakesFallsBackToTheFirehoseSaidAndCounted() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RejectionMessages messages = messages(Map.of("KAFKA_APPID_TOPICS", "true"), meters);
        String appid = "a".repeat(240); // a legal appid, but demo.outbound_<appid> has 254 characters

        List<ILoggingEvent> logged;
        List<ProducerRecord<String, byte[]>> sent;
        try (CapturedLog log = CapturedLog.start(RejectionMessages.class, Level.WARN)) {
            sent = messages.of("demo.incoming", 0, 1, bytes("{}"), refused(appid));
            logged = log.events();
        }

        assertEquals(List.of("demo.incoming_rejected", "demo.outbound_firehose"), topics(sent));
        assertEquals(1, meters.get("kafka.monitor.answers.firehose.only").counter().count());
        assertTrue(logged.getFirst().getFormattedMessage().startsWith("Error answer sent to demo.outbound_firehose only"), logged.toString());
    }


    @Test
    void eachPublicationCanBeTurnedOff() throws Exception {
        assertEquals(List.of("demo.outbound_firehose"),
                topics(messages(Map.of("PUBLISH_REJECTED", "false")).of("demo.incoming", 0, 1, bytes("{}"), refused("app1"))));
        assertEquals(List.of("demo.incoming_rejected"),
                topics(messages(Map.of("PUBLISH_ERROR_ANSWERS", "false")).of("demo.incoming", 0, 1, bytes("{}"), refused("app1"))));
    }

    @Test
    void withoutStringAppidAndUuidThereIsNobodyToAnswer() throws Exception {
        Rejection numericUuid = Rejection.invalid(JSON.readTree("{\"uuid\":5,\"appid\":\"app1\"}"), "stats", violation("uuid", "must be a string"));
        Rejection noAppid = Rejection.invalid(JSON.readTree("{\"uuid\":\"u1\"}"), "stats", violation("appid", "is required"));

        assertEquals(List.of("demo.incoming_rejected"), topics(messages(Map.of()).of("demo.incoming", 0, 1, bytes("{}"), numericUuid)));
        assertEquals(List.of("demo.incoming_rejected"), topics(messages(Map.of()).of("demo.incoming", 0, 1, bytes("{}"), noAppid)));
    }

    @Test
    void aLongDetailIsCut() throws Exception {
        Rejection rejection = Rejection.refused(JSON.readTree("{}"), "scraper", "The crawl request cannot be queued", List.of("url: " + "x".repeat(2000)));
        assertEquals(ListedDetails.MAX_CHARS + 1, rejection.details().getFirst().length());
    }

    @Test
    void aRequestWithViolationsBeyondCountIsToldOfTheFirstAndHowManyMoreWithinWhatKafkaTakes() throws Exception {
        StringBuilder request = new StringBuilder("{\"uuid\":\"u1\",\"appid\":\"app1\"");
        for (int i = 0; i < 50_000; i++) {
            request.append(",\"field").append(i).append("\":0");
        }
        JsonNode parsed = JSON.readTree(request.append('}').toString());
        ValidationResult.Invalid violations = (ValidationResult.Invalid) new RequestValidator(RequestSchema.builtIn(RequestSchema.STATS))
                .validate(parsed);
        Rejection rejection = Rejection.invalid(parsed, "stats", violations);

        List<ProducerRecord<String, byte[]>> messages = messages(Map.of()).of("demo.incoming", 0, 1, bytes(request.toString()), rejection);

        int shown = ListedDetails.MAX_LISTED - 1;
        assertEquals(ListedDetails.MAX_LISTED, rejection.details().size());
        assertEquals(violations.details().subList(0, shown), rejection.details().subList(0, shown));
        assertTrue(rejection.details().getFirst().endsWith(": is not an allowed field (the request may only have the fields its schema lists)"),
                rejection.details().getFirst());
        assertEquals("request: " + (violations.count() - shown) + " more violations not listed", rejection.details().getLast());
        assertTrue(violations.count() >= 50_000, "every field counted: " + violations.count());
        for (ProducerRecord<String, byte[]> message : messages) {
            assertTrue(message.value().length < KAFKA_DEFAULT_MAX_REQUEST_SIZE / 10, message.topic() + ": " + message.value().length + " bytes");
        }
    }

    private static ValidationResult.Invalid violation(String path, String message) {
        return new ValidationResult.Invalid(List.of(new Violation(path, message)));
    }

    private static Rejection refused(String appid) throws Exception {
        return Rejection.refused(JSON.readTree("{\"uuid\":\"u1\",\"appid\":\"" + appid + "\"}"), "zookeeper",
                "'hits' and 'window' not set for domain update", List.of("hits: must be set, and not 0, for a domain-update (0 is also what it is when left out)"));
    }

    private static RejectionMessages messages(Map<String, String> settings) {
        return messages(settings, new SimpleMeterRegistry());
    }

    private static RejectionMessages messages(Map<String, String> settings, MeterRegistry meters) {
        Settings loaded = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), settings));
        return new RejectionMessages(loaded, new Json(JsonLimits.from(loaded)), CLOCK, meters);
    }

    private static JsonNode tree(ProducerRecord<String, byte[]> message) throws Exception {
        return JSON.readTree(message.value());
    }

    private static List<String> topics(List<ProducerRecord<String, byte[]>> messages) {
        return messages.stream().map(ProducerRecord::topic).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
