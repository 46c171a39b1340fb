package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;

/**
 * What a client is told of a body that is not JSON: what was wrong and where, in the words of JSON,
 * never the parser's configuration (its features, Java types, token names or methods).
 */
class JsonBodiesTest {

    /** What the parser library says to programmers: a Java name in backquotes, a feature, a token type. */
    private static final Pattern LIBRARY_TALK = Pattern.compile("`|Feature|ALLOW_|FAIL_ON|START_OBJECT|jackson|StreamReadConstraints");

    private final JsonBodies bodies = new JsonBodies(new Json(new JsonLimits(64, 1_000, 1_048_576)));

    @Test
    void saysWhatWasWrongAndWhereWithoutTheParsersSettings() {
        assertEquals("Invalid JSON: Non-standard token 'NaN', at line 1, column 10", cause("{\"a\": NaN}"));
        assertEquals("Invalid JSON: Unexpected character ('/' (code 47)): maybe a (non-standard) comment?, at line 1, column 1",
                cause("/* c */{}"));
        assertEquals("Invalid JSON: Unexpected character ('+' (code 43)) in numeric value: JSON spec does not allow numbers"
                + " to have plus signs, at line 1, column 8", cause("{\"a\": +1}"));
        assertEquals("Invalid JSON: Trailing token found after value, at line 1, column 10", cause("{\"a\": 1} {}"));
        assertEquals("JSON beyond the limits: Number value length (1001) exceeds the maximum allowed (1000)",
                cause("{\"a\": " + "1".repeat(1001) + "}"));
    }

    @Test
    void keepsWhatTheClientSentEvenWhenItReadsLikeTheParsersWords() {
        assertEquals("Invalid JSON: Unrecognized token 'Feature': was expecting (JSON String, Number, Array, Object"
                + " or token 'null', 'true' or 'false'), at line 1, column 7", cause("{\"a\": Feature}"));
        assertEquals("JSON beyond the limits: Document nesting depth (65) exceeds the maximum allowed (64, JSON_MAX_DEPTH)",
                cause("[".repeat(65) + "]".repeat(65)));
    }

    @Test
    void neverNamesTheParsersSettings() {
        for (String body : new String[] {"{\"a\": -Infinity}", "// c\n{}", "{\"a\": 1}}", "{'a': 1}", "{\"a\": \"x\ny\"}",
                "{\"a\": 1", "[1, , 2]", "{\"a\": \"" + "x".repeat(1001) + "\"}"}) {
            String cause = cause(body);
            assertFalse(LIBRARY_TALK.matcher(cause).find(), body + ": " + cause);
            assertTrue(cause.startsWith("Invalid JSON: ") || cause.startsWith("JSON beyond the limits: "), cause);
        }
    }

    private String cause(String body) {
        HttpCall call = new HttpCall(HttpMethod.POST, "/feed", "application/json", body.getBytes(StandardCharsets.UTF_8));
        RefusedRequestException refused = assertThrows(RefusedRequestException.class, () -> bodies.read(call));
        assertEquals(Refusal.MALFORMED_JSON, refused.refusal());
        return refused.detail();
    }
}
