package org.scrapycluster.rest.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.bytes.BytePrefix;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;

/**
 * Reads the JSON body of a call as the original's JSON decorator does (docs/compatibility.md §6.3): a body not declared
 * as JSON, or not JSON, is refused with {@code The payload must be valid JSON.}; here the
 * envelope's {@code cause} says what was wrong, and where, in the {@link Json} reader's words. The {@link Json}
 * reader bounds depth, string length and size. A gzip-compressed body (a client sending {@code Content-Encoding: gzip})
 * is named as such, where the reader would say only that its second byte is not UTF-8: the gateway, as Flask, reads
 * the JSON itself.
 */
public final class JsonBodies {

    private final Json json;

    public JsonBodies(Json json) {
        this.json = json;
    }

    /** The body as a JSON tree. */
    public JsonNode read(HttpCall call) throws RefusedRequestException {
        if (!call.declaresJson()) {
            throw new RefusedRequestException(Refusal.CONTENT_TYPE, call.contentType().isEmpty()
                    ? "The request has no Content-Type; send application/json."
                    : "The Content-Type is " + call.contentType() + "; send application/json.");
        }
        try {
            return json.readTree(call.body());
        } catch (JsonInputException e) {
            throw new RefusedRequestException(Refusal.MALFORMED_JSON, BytePrefix.GZIP.starts(call.body())
                    ? "The body is gzip data (it starts with the bytes " + BytePrefix.GZIP + "); send the JSON itself, without Content-Encoding"
                    : e.getMessage());
        }
    }
}
