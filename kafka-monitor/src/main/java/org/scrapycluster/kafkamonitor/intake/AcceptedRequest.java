package org.scrapycluster.kafkamonitor.intake;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.request.LoggedFields;
import org.scrapycluster.kafkamonitor.rejection.Rejection;

/**
 * What the monitor keeps of an accepted request until its batch is committed: the request as its plugin saw it
 * (defaults and {@code ts} included) as JSON text, for its log line, and the few fields a refusal that comes once
 * Redis has answered quotes ({@link #KEPT}), with whom to answer. Not the parsed tree: a batch keeps its records
 * until it is committed, and a tree can cost forty times its text (a 1 MiB request whose {@code attrs} holds a
 * quarter of a million empty objects is about 42 MB), so that a batch of such requests would exhaust the heap
 * (docs/operations.md, "Sizing").
 *
 * @param json      the request as JSON text
 * @param fields    the text of each field of {@link #KEPT} the request has as a string, number or boolean
 * @param recipient whom an error answer goes to, when the request has string {@code appid} and {@code uuid}
 */
record AcceptedRequest(String json, Map<String, String> fields, Optional<Rejection.Recipient> recipient) {

    /** The fields a refusal after the Redis write names (docs/api.md, "Rejected records and error answers"). */
    static final List<String> KEPT = List.of("appid", "crawlid", "spiderid", "expires");

    /** Reads text this monitor wrote itself, so none of the limits on what comes from outside apply. */
    private static final JsonFactory OWN_TEXT = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .build())
            .build();

    AcceptedRequest {
        Objects.requireNonNull(json, "json");
        fields = Map.copyOf(fields);
        Objects.requireNonNull(recipient, "recipient");
    }

    /** What is kept of {@code request}. */
    static AcceptedRequest of(Json json, ObjectNode request) {
        Map<String, String> fields = new HashMap<>();
        for (String name : KEPT) {
            JsonNode value = request.get(name);
            if (value != null && value.isValueNode() && !value.isNull()) {
                fields.put(name, value.asText());
            }
        }
        return new AcceptedRequest(json.writeString(request), fields, Rejection.Recipient.of(request));
    }

    /** The text of the field {@code name} of {@link #KEPT}; empty when the request has no such string, number or boolean. */
    String field(String name) {
        return fields.getOrDefault(name, "");
    }

    /**
     * Hands each top-level field of the request to {@code field}, in order, read from its text: a string, number,
     * boolean or null as a value, an object or array as its JSON text, which a log encoder writes in place; a
     * credential as {@link LoggedFields} shows it.
     */
    void forEachField(BiConsumer<String, Object> field) {
        try (JsonParser parser = OWN_TEXT.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                field.accept(name, LoggedFields.shown(name, value(parser, token)));
            }
        } catch (IOException e) {
            // the monitor wrote this text itself; should it not read, the log line still shows the request
            field.accept("request", json);
        }
    }

    private Object value(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> parser.getNumberValue();
            case VALUE_NUMBER_FLOAT -> new RawValue(parser.getText()); // as written: 1709288553.812345, not a double's digits
            case VALUE_TRUE, VALUE_FALSE -> parser.getBooleanValue();
            case VALUE_NULL -> null;
            case START_OBJECT, START_ARRAY -> {
                int start = (int) parser.currentTokenLocation().getCharOffset();
                parser.skipChildren();
                yield new RawValue(json.substring(start, (int) parser.currentLocation().getCharOffset()));
            }
            default -> throw new IOException("unexpected " + token);
        };
    }
}
