package org.scrapycluster.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * What every reader of JSON from outside is told of input that is not JSON (a REST client, the rejected
 * topic, the feed tool): what was wrong and where, in the words of JSON, never the parser's
 * configuration (its features, Java types, token names or methods).
 */
class JsonProblemTest {

    /** What the parser library says to programmers: a Java name in backquotes, a feature, a token type. */
    private static final Pattern LIBRARY_TALK = Pattern.compile("`|Feature|ALLOW_|FAIL_ON|START_OBJECT|jackson|StreamReadConstraints");

    private final Json json = new Json(new JsonLimits(64, 1_000, 1_048_576));

    @Test
    void saysWhatWasWrongAndWhereWithoutTheParsersSettings() {
        assertEquals("Invalid JSON: Non-standard token 'NaN', at line 1, column 10", problem("{\"a\": NaN}"));
        assertEquals("Invalid JSON: Unexpected character ('/' (code 47)): maybe a (non-standard) comment?, at line 1, column 1",
                problem("/* c */{}"));
        assertEquals("Invalid JSON: Unexpected character ('+' (code 43)) in numeric value: JSON spec does not allow numbers"
                + " to have plus signs, at line 1, column 8", problem("{\"a\": +1}"));
        assertEquals("Invalid JSON: Trailing token found after value, at line 1, column 10", problem("{\"a\": 1} {}"));
        assertEquals("JSON beyond the limits: Number value length (1001) exceeds the maximum allowed (1000)",
                problem("{\"a\": " + "1".repeat(1001) + "}"));
    }

    @Test
    void keepsWhatTheSenderWroteEvenWhenItReadsLikeTheParsersWords() {
        assertEquals("Invalid JSON: Unrecognized token 'Feature': was expecting (JSON String, Number, Array, Object"
                + " or token 'null', 'true' or 'false'), at line 1, column 7", problem("{\"a\": Feature}"));
        assertEquals("JSON beyond the limits: Document nesting depth (65) exceeds the maximum allowed (64, JSON_MAX_DEPTH)",
                problem("[".repeat(65) + "]".repeat(65)));
    }

    @Test
    void neverNamesTheParsersSettings() {
        for (String text : new String[] {"{\"a\": -Infinity}", "// c\n{}", "{\"a\": 1}}", "{'a': 1}", "{\"a\": \"x\ny\"}",
                "{\"a\": 1", "[1, , 2]", "{\"a\": \"" + "x".repeat(1001) + "\"}"}) {
            String problem = problem(text);
            assertFalse(LIBRARY_TALK.matcher(problem).find(), text + ": " + problem);
            assertTrue(problem.startsWith("Invalid JSON: ") || problem.startsWith("JSON beyond the limits: "), problem);
        }
    }

    @Test
    void readsTextAsItReadsBytes() {
        JsonInputException fromText = assertThrows(JsonInputException.class, () -> json.readTree("{\"a\": NaN}"));
        assertEquals(problem("{\"a\": NaN}"), fromText.getMessage());
    }

    private String problem(String text) {
        return assertThrows(JsonInputException.class, () -> json.readTree(text.getBytes(StandardCharsets.UTF_8))).getMessage();
    }
}
