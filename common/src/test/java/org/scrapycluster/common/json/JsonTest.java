package org.scrapycluster.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

class JsonTest {

    private final Json json = new Json(new JsonLimits(64, 1_000_000, 4_000_000));

    /** {@code value} written by {@link Json#writeSorted} into a generator of its own. */
    private String sorted(Object value) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator generator = json.generator(out)) {
            json.writeSorted(generator, value);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void readsAnOrdinaryRequest() throws JsonInputException {
        JsonNode request = json.readTree("{\"url\":\"http://example.com/\",\"appid\":\"täst\",\"crawlid\":\"c1\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals("täst", request.get("appid").asText());
    }

    /**
     * What the Kafka monitor writes of a request's free-form numbers, read as Python reads them (64-bit floats): a
     * negative zero keeps its sign, and a number beyond a float is written as the string {@code "Infinity"}, never the
     * bare word, which is not JSON (docs/differences.md).
     */
    @Test
    void aNegativeZeroKeepsItsSignAndAnOverflowIsWrittenAsValidJson() throws JsonInputException {
        JsonNode request = json.readTree("{\"zero\":-0.0,\"huge\":1e400,\"minus\":-1e400}");

        assertEquals("{\"zero\":-0.0,\"huge\":\"Infinity\",\"minus\":\"-Infinity\"}", json.writeString(request));
    }

    @Test
    void refusesDeepNesting() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        JsonInputException e = assertThrows(JsonInputException.class, () -> json.readTree(deep.getBytes(StandardCharsets.US_ASCII)));
        assertTrue(e.getMessage().startsWith("JSON beyond the limits"), e.getMessage());
        assertTrue(e.getMessage().contains("nesting depth"), e.getMessage());
        assertTrue(e.getMessage().contains("JSON_MAX_DEPTH") && !e.getMessage().contains("StreamReadConstraints"),
                "names the setting, not Jackson's method: " + e.getMessage());
    }

    @Test
    void refusesHugeStringsAndDocuments() {
        String longString = "{\"a\":\"" + "x".repeat(10_000_000) + "\"}";
        JsonInputException string = assertThrows(JsonInputException.class, () -> json.readTree(longString));
        assertTrue(string.getMessage().contains("String value length"), string.getMessage());
        assertTrue(string.getMessage().contains("JSON_MAX_STRING_LENGTH"), string.getMessage());

        JsonInputException document = assertThrows(JsonInputException.class,
                () -> json.readTree(longString.getBytes(StandardCharsets.US_ASCII)));
        assertTrue(document.getMessage().contains("larger than the limit of 4000000 bytes"), document.getMessage());
    }

    @Test
    void refusesInvalidUtf8WithTheOffset() {
        byte[] prefix = "{\"a\":\"".getBytes(StandardCharsets.US_ASCII);
        for (byte[] bad : List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf},
                new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0xe2, (byte) 0x82})) {
            byte[] input = new byte[prefix.length + bad.length + 2];
            System.arraycopy(prefix, 0, input, 0, prefix.length);
            System.arraycopy(bad, 0, input, prefix.length, bad.length);
            input[input.length - 2] = '"';
            input[input.length - 1] = '}';
            JsonInputException e = assertThrows(JsonInputException.class, () -> json.readTree(input));
            assertTrue(e.getMessage().startsWith("Input is not valid UTF-8"), e.getMessage());
            assertTrue(e.getMessage().endsWith("at offset 6"), e.getMessage());
        }
    }

    /** A UTF-8 byte order mark before the document is skipped, as Python's {@code json.loads} of bytes skips it. */
    @Test
    void skipsAByteOrderMarkBeforeTheDocumentOnly() throws JsonInputException {
        byte[] mark = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
        assertEquals("c1", json.readTree(concat(mark, "{\"crawlid\":\"c1\"}".getBytes(StandardCharsets.UTF_8))).get("crawlid").asText());

        JsonInputException twice = assertThrows(JsonInputException.class, () -> json.readTree(concat(mark, mark, "{}".getBytes(StandardCharsets.UTF_8))));
        assertTrue(twice.getMessage().startsWith("Invalid JSON: "), twice.getMessage());
        JsonInputException inside = assertThrows(JsonInputException.class,
                () -> json.readTree(concat("{}".getBytes(StandardCharsets.UTF_8), mark)));
        assertTrue(inside.getMessage().startsWith("Invalid JSON: "), inside.getMessage());
        JsonInputException badByte = assertThrows(JsonInputException.class, () -> json.readTree(concat(mark, new byte[] {'{', (byte) 0xff})));
        assertTrue(badByte.getMessage().endsWith("at offset 4"), "the offset counts the mark: " + badByte.getMessage());
        assertThrows(JsonInputException.class, () -> json.readTree(mark), "a mark alone is an empty document");
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void saysWhereMalformedInputWentWrongWithoutJacksonsRedactedSource() {
        JsonInputException e = assertThrows(JsonInputException.class,
                () -> json.readTree("{\"url\":\"http://a.example/\",\n \"appid\":}".getBytes(StandardCharsets.UTF_8)));

        assertEquals("Invalid JSON: Unexpected character ('}' (code 125)): expected a valid value (JSON String, Number, Array, Object "
                + "or token 'null', 'true' or 'false'), at line 2, column 10", e.getMessage());

        JsonInputException unfinished = assertThrows(JsonInputException.class, () -> json.readTree("{\"url\":\"http://a.example/\"".getBytes(StandardCharsets.UTF_8)));
        assertEquals("Invalid JSON: Unexpected end-of-input: expected close marker for Object (start marker at line: 1, column: 1), "
                + "at line 1, column 27", unfinished.getMessage());
    }

    @Test
    void refusesMalformedEmptyAndTrailingInput() {
        for (String bad : List.of("", "   ", "{\"a\":", "{\"a\":1} {\"b\":2}", "{'a':1}")) {
            assertThrows(JsonInputException.class, () -> json.readTree(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
    }

    @Test
    void writesSortedKeysAtEveryLevelWithoutEscapingSlashes() throws JsonInputException, IOException {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1);
        Map<String, Object> element = new LinkedHashMap<>();
        element.put("y", 2);
        element.put("b", 3);
        inner.put("a", List.of(element));
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("url", "http://example.com/a/b");
        item.put("attrs", inner);
        item.put("body", "é");
        assertEquals("{\"attrs\":{\"a\":[{\"b\":3,\"y\":2}],\"z\":1},\"body\":\"é\",\"url\":\"http://example.com/a/b\"}",
                sorted(item));
        assertEquals("{\"url\":\"http://example.com/a/b\",\"attrs\":{\"z\":1,\"a\":[{\"y\":2,\"b\":3}]},\"body\":\"é\"}",
                json.writeString(item));

        ObjectNode tree = (ObjectNode) json.readTree("{\"b\":1,\"a\":{\"d\":2,\"c\":3}}");
        assertEquals("{\"a\":{\"c\":3,\"d\":2},\"b\":1}", sorted(tree));
        assertEquals("{\"b\":1,\"a\":{\"d\":2,\"c\":3}}", json.writeString(tree));
    }

    @Test
    void limitsComeFromSettings() {
        assertEquals(new JsonLimits(64, 10_485_760, 16_777_216), JsonLimits.from(Settings.defaults("redis-monitor")));
        assertEquals(new JsonLimits(64, 10_485_760, 1_048_576), JsonLimits.from(Settings.defaults("kafka-monitor")),
                "the Kafka monitor restates the largest document: a request is at most 1 MiB");
    }
}
