package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;

/** Which content types declare a JSON body, as Flask's {@code is_json} decides. */
class HttpCallTest {

    @Test
    void jsonAndJsonSuffixedTypesWithAnyParameters() {
        assertTrue(call("application/json").declaresJson());
        assertTrue(call("Application/JSON; charset=utf-8").declaresJson());
        assertTrue(call("application/vnd.api+json").declaresJson());
    }

    @Test
    void everythingElseIsNotJson() {
        assertFalse(call(null).declaresJson());
        assertFalse(call("text/plain").declaresJson());
        assertFalse(call("application/x-www-form-urlencoded").declaresJson());
        assertFalse(call("text/json+xml").declaresJson());
        assertFalse(call("application/jsonp").declaresJson());
    }

    private static HttpCall call(String contentType) {
        return new HttpCall(HttpMethod.POST, "/feed", contentType, new byte[0]);
    }
}
