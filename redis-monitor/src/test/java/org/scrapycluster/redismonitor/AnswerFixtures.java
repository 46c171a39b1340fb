package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The original's answer shapes, as fixture files under {@code answers/}, compared with a real
 * answer field by field. A fixture names test-specific values as {@code {{name}}} (spider ids,
 * appids, uuids), {@code "<server_time>"} stands for the integer epoch second the answer was
 * made, which must lie between when the test wrote the job and when it read the answer, and
 * {@code "<start_time>"} for an integer epoch second before the answer was read (the test checks its value).
 */
public final class AnswerFixtures {

    static final String SERVER_TIME = "<server_time>";
    static final String START_TIME = "<start_time>";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AnswerFixtures() {
    }

    /**
     * Asserts that {@code actual} is the fixture {@code name} with {@code values} filled in, its
     * {@code server_time} between {@code from} and {@code to} (epoch seconds).
     */
    public static void assertAnswer(String name, Map<String, String> values, JsonNode actual, long from, long to) {
        String text = Texts.resource("answers/" + name);
        for (Map.Entry<String, String> value : values.entrySet()) {
            text = text.replace("{{" + value.getKey() + "}}", value.getValue());
        }
        assertTrue(!text.contains("{{"), name + " has a placeholder without a value: " + text);
        try {
            compare(name, "", MAPPER.readTree(text), actual, from, to);
        } catch (IOException e) {
            throw new UncheckedIOException("fixture " + name + " is not JSON", e);
        }
    }

    private static void compare(String name, String path, JsonNode expected, JsonNode actual, long from, long to) {
        String where = name + " at " + (path.isEmpty() ? "the top" : path) + ": ";
        if (expected.isTextual() && expected.asText().equals(SERVER_TIME)) {
            assertTrue(actual.isIntegralNumber(), where + "server_time must be an integer, was " + actual);
            assertTrue(actual.asLong() >= from && actual.asLong() <= to, where + actual + " is not between " + from + " and " + to);
        } else if (expected.isTextual() && expected.asText().equals(START_TIME)) {
            assertTrue(actual.isIntegralNumber(), where + "a start time must be an integer, was " + actual);
            assertTrue(actual.asLong() <= to, where + actual + " is after " + to);
        } else if (expected.isObject()) {
            assertTrue(actual.isObject(), where + "expected an object, was " + actual);
            assertEquals(fields(expected), fields(actual), where + "the fields differ in " + actual);
            for (Iterator<Map.Entry<String, JsonNode>> fields = expected.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                compare(name, path + "." + field.getKey(), field.getValue(), actual.get(field.getKey()), from, to);
            }
        } else if (expected.isArray()) {
            assertTrue(actual.isArray(), where + "expected an array, was " + actual);
            assertEquals(expected.size(), actual.size(), where + "array sizes differ: " + actual);
            for (int i = 0; i < expected.size(); i++) {
                compare(name, path + "[" + i + "]", expected.get(i), actual.get(i), from, to);
            }
        } else if (expected.isNumber()) {
            assertTrue(actual.isNumber(), where + "expected a number, was " + actual);
            assertEquals(expected.decimalValue().stripTrailingZeros(), actual.decimalValue().stripTrailingZeros(), where);
            assertEquals(expected.isIntegralNumber(), actual.isIntegralNumber(), where + "integer and float differ: " + actual);
        } else {
            assertEquals(expected, actual, where);
        }
    }

    private static TreeSet<String> fields(JsonNode node) {
        TreeSet<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
