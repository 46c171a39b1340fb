package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;

/**
 * What a client is told of a body that is not JSON: the reader's words for what was wrong and where
 * (common's JsonProblemTest shows they never name the parser's settings).
 */
class JsonBodiesTest {

    private final JsonBodies bodies = new JsonBodies(new Json(new JsonLimits(64, 1_000, 1_048_576)));

    @Test
    void saysWhatWasWrongAndWhere() {
        HttpCall call = new HttpCall(HttpMethod.POST, "/feed", "application/json", "{\"a\": NaN}".getBytes(StandardCharsets.UTF_8));

        RefusedRequestException refused = assertThrows(RefusedRequestException.class, () -> bodies.read(call));

        assertEquals(Refusal.MALFORMED_JSON, refused.refusal());
        assertEquals("Invalid JSON: Non-standard token 'NaN', at line 1, column 10", refused.detail());
    }
}
