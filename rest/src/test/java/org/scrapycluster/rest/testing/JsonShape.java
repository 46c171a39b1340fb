package org.scrapycluster.rest.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Compares a JSON answer with a fixture field by field: the same fields at every level, each equal,
 * except where the fixture says only what kind of value to expect: {@code "<integer>"},
 * {@code "<string>"} (non-empty) or {@code "<uuid12>"} (12 hex characters).
 */
public final class JsonShape {

    private JsonShape() {
    }

    public static void assertMatches(JsonNode expected, JsonNode actual) {
        match(expected, actual, "$");
    }

    private static void match(JsonNode expected, JsonNode actual, String path) {
        if (actual == null) {
            fail(path + ": missing, expected " + expected);
        }
        if (expected.isTextual() && expected.asText().startsWith("<") && expected.asText().endsWith(">")) {
            placeholder(expected.asText(), actual, path);
            return;
        }
        if (expected.isObject()) {
            assertTrue(actual.isObject(), path + ": expected an object, was " + actual);
            assertEquals(names(expected), names(actual), path + ": fields");
            for (Iterator<String> names = expected.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                match(expected.get(name), actual.get(name), path + "." + name);
            }
            return;
        }
        if (expected.isArray()) {
            assertTrue(actual.isArray(), path + ": expected an array, was " + actual);
            assertEquals(expected.size(), actual.size(), path + ": length");
            for (int i = 0; i < expected.size(); i++) {
                match(expected.get(i), actual.get(i), path + "[" + i + "]");
            }
            return;
        }
        assertEquals(expected, actual, path);
    }

    private static void placeholder(String kind, JsonNode actual, String path) {
        switch (kind) {
            case "<integer>" -> assertTrue(actual.isIntegralNumber(), path + ": expected an integer, was " + actual);
            case "<string>" -> assertTrue(actual.isTextual() && !actual.asText().isEmpty(), path + ": expected text, was " + actual);
            case "<uuid12>" -> assertTrue(actual.isTextual() && actual.asText().matches("[0-9a-f]{12}"),
                    path + ": expected 12 hex characters, was " + actual);
            default -> fail("unknown placeholder " + kind + " at " + path);
        }
    }

    private static Set<String> names(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
