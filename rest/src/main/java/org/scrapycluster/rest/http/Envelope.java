package org.scrapycluster.rest.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.json.Json;

/**
 * The response envelope of every endpoint but {@code /} (docs/compatibility.md §6.2):
 * {@code {"status": "SUCCESS"|"FAILURE", "data": ..., "error": null|{"message"[, "cause"]}}}.
 */
public final class Envelope {

    public static final String UNKNOWN_ERROR = "An error occurred while processing your request.";
    public static final String MUST_JSON = "The payload must be valid JSON.";
    public static final String DOES_NOT_EXIST = "The desired endpoint does not exist";
    public static final String BAD_SCHEMA = "JSON did not validate against schema.";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Json json;

    public Envelope(Json json) {
        this.json = json;
    }

    /** 200 {@code {"status":"SUCCESS","data":<data>,"error":null}}; a null {@code data} is JSON null. */
    public HttpAnswer success(JsonNode data) {
        ObjectNode body = NODES.objectNode();
        body.put("status", "SUCCESS");
        body.set("data", data == null ? NullNode.instance : data);
        body.set("error", NullNode.instance);
        return json(200, body);
    }

    /** {@code status} {@code {"status":"FAILURE","data":null,"error":{"message":<message>}}}. */
    public HttpAnswer failure(int status, String message) {
        return failure(status, message, null);
    }

    /** As {@link #failure(int, String)}, with {@code error.cause} when {@code cause} is not null. */
    public HttpAnswer failure(int status, String message, String cause) {
        ObjectNode error = NODES.objectNode();
        error.put("message", message);
        if (cause != null) {
            error.put("cause", cause);
        }
        ObjectNode body = NODES.objectNode();
        body.put("status", "FAILURE");
        body.set("data", NullNode.instance);
        body.set("error", error);
        return json(status, body);
    }

    /** The envelope of a refused request. */
    public HttpAnswer refused(RefusedRequestException refused) {
        return failure(refused.refusal().status(), refused.refusal().message(), refused.detail());
    }

    /** Any JSON body, outside the envelope (the index answer). */
    public HttpAnswer json(int status, JsonNode body) {
        return new HttpAnswer(status, HttpAnswer.JSON, json.writeBytes(body));
    }
}
