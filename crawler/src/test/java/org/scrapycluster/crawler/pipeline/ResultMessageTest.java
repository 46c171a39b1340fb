package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.links.Link;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The reference messages of docs/compatibility.md §4.14, kept as fixture files under {@code pipeline/}: plain, with a
 * base64 body ({@code dGV4dA==}), and an ISO-8859-7 body that decodes back exactly. The original's test used
 * the literal timestamp {@code "the time"}; the fixtures carry a real one.
 */
class ResultMessageTest {

    private static final Instant TIME = Instant.parse("2024-03-01T10:22:33.123456Z");
    private static final Json JSON = new Json(new JsonLimits(64, 1_000_000, 10_000_000));
    /** The reference a message is checked against: a plain mapper writing maps with their keys sorted. */
    private static final ObjectMapper SORTED = JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    private static final String GREEK = "αυτό είναι ένα τεστ\n";

    @Test
    void thePlainReferenceMessage() throws Exception {
        assertMessage("plain.json", new ResultMessage(JSON, false).encode(item("text".getBytes(StandardCharsets.UTF_8), CrawledPage.UTF_8), TIME));
    }

    @Test
    void theBase64ReferenceMessage() throws Exception {
        assertMessage("base64.json", new ResultMessage(JSON, true).encode(item("text".getBytes(StandardCharsets.UTF_8), CrawledPage.UTF_8), TIME));
    }

    @Test
    void anIso88597BodyTravelsAsBase64AndDecodesBackExactly() throws Exception {
        Charset greek = Charset.forName("ISO-8859-7");
        byte[] raw = GREEK.getBytes(greek);
        byte[] message = new ResultMessage(JSON, true).encode(item(raw, new DetectedEncoding("iso-8859-7", greek)), TIME);
        assertMessage("iso-8859-7-base64.json", message);
        JsonNode read = JSON.readTree(message);
        assertArrayEquals(raw, Base64.getDecoder().decode(read.get("body").asText()));
        assertEquals(GREEK, new String(Base64.getDecoder().decode(read.get("body").asText()), Charset.forName(read.get("encoding").asText())));
    }

    @Test
    void withoutBase64ALegacyBodyIsDecodedAndInvalidBytesStillMakeValidJson() throws Exception {
        Charset greek = Charset.forName("ISO-8859-7");
        JsonNode decoded = JSON.readTree(new ResultMessage(JSON, false).encode(item(GREEK.getBytes(greek),
                new DetectedEncoding("iso8859-7", greek)), TIME));
        assertEquals(GREEK, decoded.get("body").asText());
        JsonNode invalid = JSON.readTree(new ResultMessage(JSON, false).encode(item(new byte[] {'a', (byte) 0xff, 'b'}, CrawledPage.UTF_8), TIME));
        assertEquals("a\uFFFDb", invalid.get("body").asText());
    }

    @Test
    void aUtf8BodyIsWrittenFromItsBytesWithTheEscapesJsonNeeds() throws Exception {
        String text = "line\n\"quoted\" back\\slash \u0001 é 中文 😀";
        JsonNode read = JSON.readTree(new ResultMessage(JSON, false).encode(item(text.getBytes(StandardCharsets.UTF_8), CrawledPage.UTF_8), TIME));
        assertEquals(text, read.get("body").asText());
    }

    @Test
    void aUtf8BodyIsEscapedExactlyAsJacksonEscapesIt() throws Exception {
        byte[] every = new byte[128 + 40];
        for (int i = 0; i < 128; i++) {
            every[i] = (byte) i;
        }
        byte[] text = "\"quoted\" \\ é 中文 😀\n".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(text, 0, every, 128, text.length);
        List<byte[]> bodies = new ArrayList<>(List.of(every, new byte[0], "plain".getBytes(StandardCharsets.UTF_8),
                "\n".repeat(5000).getBytes(StandardCharsets.UTF_8)));
        Random random = new Random(7);
        String alphabet = "abcdefgh<>'=/ \"\\\n\t\u0001\u001fé中";
        for (int n = 0; n < 200; n++) {
            StringBuilder mixed = new StringBuilder();
            for (int k = random.nextInt(100); k > 0; k--) {
                mixed.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            bodies.add(mixed.toString().getBytes(StandardCharsets.UTF_8));
        }
        for (byte[] body : bodies) {
            ByteArrayOutputStream jackson = new ByteArrayOutputStream();
            try (JsonGenerator generator = new JsonFactory().createGenerator(jackson)) {
                generator.writeUTF8String(body, 0, body.length);
            }
            byte[] written = jackson.toByteArray();
            MessageBuffer escaped = new MessageBuffer(1);
            assertTrue(Utf8Text.escape(body, escaped));
            assertEquals(HexFormat.of().formatHex(written, 1, written.length - 1), HexFormat.of().formatHex(escaped.toByteArray()));
        }
    }

    /** Written field by field, the message has exactly the bytes of a sorted map of its fields. */
    @Test
    void theMessageIsTheSortedMapOfItsFields() throws JsonProcessingException {
        byte[] body = "<p class=\"x\">caf\u00e9\n</p>".getBytes(StandardCharsets.UTF_8);
        Map<String, Object> attrs = new LinkedHashMap<>(Map.of("z", 1, "a", Map.of("y", List.of(1, 2), "b", "\u00e9")));
        Map<String, Object> added = new LinkedHashMap<>();
        added.put("zeta", List.of(Map.of("k2", 2, "k1", 1)));
        added.put("aaa", "first");
        added.put("depth", 3);
        CrawlResult item = new CrawlResult("link", "app", "crawl", attrs, "http://a.example/x", "http://a.example/y", 404,
                "Not Found", Map.of("Server", List.of("nginx"), "Content-Type", List.of("text/html"), "Set-Cookie", List.of("a=1", "b=2")),
                Map.of("User-Agent", List.of("bot"), "Accept", List.of("*/*")), body, CrawledPage.UTF_8,
                List.of(new Link("http://a.example/1", "one \"1\""), new Link("http://a.example/2", "")), added, false);
        for (ResultMessage.Omitted omitted : ResultMessage.Omitted.values()) {
            boolean omitBody = omitted != ResultMessage.Omitted.NOTHING;
            boolean omitLinks = omitted == ResultMessage.Omitted.BODY_AND_LINKS;
            Map<String, Object> fields = new LinkedHashMap<>(added);
            fields.put("appid", "app");
            fields.put("attrs", attrs);
            fields.put("body", omitBody ? "" : new String(body, StandardCharsets.UTF_8));
            if (omitBody) {
                fields.put("body_omitted", true);
            }
            fields.put("crawlid", "crawl");
            fields.put("encoding", "utf-8");
            fields.put("links", omitLinks ? List.of()
                    : List.of(Map.of("url", "http://a.example/1", "text", "one \"1\""), Map.of("url", "http://a.example/2", "text", "")));
            if (omitLinks) {
                fields.put("links_omitted", true);
            }
            fields.put("request_headers", item.requestHeaders());
            fields.put("response_headers", item.responseHeaders());
            fields.put("response_url", "http://a.example/y");
            fields.put("status_code", 404);
            fields.put("status_msg", "Not Found");
            fields.put("timestamp", "2024-03-01T10:22:33.123456");
            fields.put("url", "http://a.example/x");
            ResultMessage messages = new ResultMessage(JSON, false);
            byte[] written = messages.encode(item, TIME, omitted, Integer.MAX_VALUE);
            assertEquals(SORTED.writeValueAsString(fields), new String(written, StandardCharsets.UTF_8));
        }
        CrawlResult bare = new CrawlResult("link", null, null, null, "http://a.example/x", null, 200, null, Map.of(), Map.of(),
                new byte[0], CrawledPage.UTF_8, List.of(), Map.of(), false);
        assertEquals("{\"appid\":null,\"attrs\":null,\"body\":\"\",\"crawlid\":null,\"encoding\":\"utf-8\",\"links\":[],"
                + "\"request_headers\":{},\"response_headers\":{},\"response_url\":null,\"status_code\":200,\"status_msg\":null,"
                + "\"timestamp\":\"2024-03-01T10:22:33.123456\",\"url\":\"http://a.example/x\"}",
                new String(new ResultMessage(JSON, false).encode(bare, TIME), StandardCharsets.UTF_8));
    }

    @Test
    void utf8IsCheckedStrictly() {
        assertTrue(Utf8Text.escape("é 中文 😀".getBytes(StandardCharsets.UTF_8), new MessageBuffer(1)));
        for (byte[] invalid : new byte[][] {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xE4, (byte) 0xB8},
                {(byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}}) {
            MessageBuffer out = new MessageBuffer(1);
            out.write('x');
            byte[] body = ("a\"b\n" + "plain text ".repeat(3)).getBytes(StandardCharsets.UTF_8);
            byte[] withInvalid = Arrays.copyOf(body, body.length + invalid.length);
            System.arraycopy(invalid, 0, withInvalid, body.length, invalid.length);
            assertFalse(Utf8Text.escape(withInvalid, out), HexFormat.of().formatHex(invalid));
            assertEquals(1, out.size(), "nothing appended");
        }
    }

    /** The escape accepts exactly what the JDK's strict UTF-8 decoder accepts. */
    @Test
    void utf8IsCheckedAsTheJdkDecodesIt() {
        Random random = new Random(11);
        byte[] pieces = {'a', '"', '\n', (byte) 0x80, (byte) 0xBF, (byte) 0xC2, (byte) 0xDF, (byte) 0xE0, (byte) 0xED, (byte) 0xEF,
            (byte) 0xF0, (byte) 0xF4, (byte) 0xF5, (byte) 0x9F, (byte) 0xA0, (byte) 0x90, (byte) 0x8F};
        for (int n = 0; n < 20_000; n++) {
            byte[] body = new byte[random.nextInt(24)];
            for (int i = 0; i < body.length; i++) {
                body[i] = random.nextInt(3) == 0 ? (byte) 'x' : pieces[random.nextInt(pieces.length)];
            }
            boolean valid;
            try {
                StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body));
                valid = true;
            } catch (CharacterCodingException e) {
                valid = false;
            }
            assertEquals(valid, Utf8Text.escape(body, new MessageBuffer(1)), HexFormat.of().formatHex(body));
        }
    }

    @Test
    void aMessageWithoutItsBodySaysSo() throws Exception {
        JsonNode read = JSON.readTree(new ResultMessage(JSON, false).encode(item(new byte[100], CrawledPage.UTF_8), TIME,
                ResultMessage.Omitted.BODY, Integer.MAX_VALUE));
        assertEquals("", read.get("body").asText());
        assertTrue(read.get("body_omitted").asBoolean());
    }

    @Test
    void aBinaryBodyIsBase64WhateverKafkaBase64EncodeSaysAndFlagged() throws Exception {
        byte[] pdf = {'%', 'P', 'D', 'F', 0x01, (byte) 0xFF};
        CrawlResult binary = item(pdf, CrawledPage.UTF_8, true);
        byte[] written = new ResultMessage(JSON, false).encode(binary, TIME);
        assertMessageKeysSorted(written);
        JsonNode read = JSON.readTree(written);
        assertEquals("JVBERgH/", read.get("body").asText());
        assertTrue(read.get("body_base64").asBoolean());
        assertFalse(JSON.readTree(new ResultMessage(JSON, true).encode(item(pdf, CrawledPage.UTF_8), TIME)).has("body_base64"),
                "a text page's body is base64 with KAFKA_BASE_64_ENCODE, unflagged, as in the original");
        assertFalse(JSON.readTree(new ResultMessage(JSON, false).encode(binary, TIME, ResultMessage.Omitted.BODY, Integer.MAX_VALUE))
                .has("body_base64"),
                "no body, no flag");
    }

    /** A thread writes its messages into one buffer, which holds nothing of the message before. */
    @Test
    void aMessageWrittenAfterALargerOneHoldsNothingOfIt() throws Exception {
        ResultMessage messages = new ResultMessage(JSON, false);
        CrawlResult small = item("text".getBytes(StandardCharsets.UTF_8), CrawledPage.UTF_8);
        byte[] alone = messages.encode(small, TIME);
        byte[] large = new byte[300_000];
        Arrays.fill(large, (byte) 'x');
        assertEquals(300_000, JSON.readTree(messages.encode(item(large, CrawledPage.UTF_8), TIME)).get("body").asText().length());
        assertArrayEquals(alone, messages.encode(small, TIME));
        assertMessage("plain.json", messages.encode(small, TIME));
    }

    @Test
    void aBufferClearedKeepsItsArrayUpToTheRetainedSize() {
        MessageBuffer buffer = new MessageBuffer(16);
        buffer.write(new byte[1000], 0, 1000);
        byte[] grown = buffer.room(0);
        buffer.clear(2048);
        assertEquals(0, buffer.size());
        assertTrue(grown == buffer.room(0), "kept");
        buffer.write(new byte[5000], 0, 5000);
        buffer.clear(2048);
        assertEquals(2048, buffer.room(0).length, "a larger array is let go");
    }

    @Test
    void timestampsCarryMicrosecondsOnlyWhenThereAreAny() {
        assertEquals("2024-03-01T10:22:33.123456", ResultMessage.timestamp(TIME));
        assertEquals("2024-03-01T10:22:33", ResultMessage.timestamp(Instant.parse("2024-03-01T10:22:33Z")));
        assertEquals("2024-03-01T10:22:33.000100", ResultMessage.timestamp(Instant.parse("2024-03-01T10:22:33.000100999Z")));
    }

    private static void assertMessage(String fixture, byte[] message) throws IOException, JsonInputException {
        assertEquals(JSON.readTree(resource(fixture)), JSON.readTree(message));
        assertMessageKeysSorted(message);
    }

    private static void assertMessageKeysSorted(byte[] message) throws JsonInputException {
        List<String> keys = new ArrayList<>();
        JSON.readTree(message).fieldNames().forEachRemaining(keys::add);
        assertEquals(keys.stream().sorted().toList(), keys, "keys sorted");
    }

    private static CrawlResult item(byte[] body, DetectedEncoding encoding) {
        return item(body, encoding, false);
    }

    private static CrawlResult item(byte[] body, DetectedEncoding encoding, boolean binary) {
        return CrawledPage.of(body).crawlid("crawlid").url("http://dumb.com").responseHeaders(Map.of()).encoding(encoding).binary(binary)
                .result();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ResultMessageTest.class.getResourceAsStream("/pipeline/" + name)) {
            return in.readAllBytes();
        }
    }
}
