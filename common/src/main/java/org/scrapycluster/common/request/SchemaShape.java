package org.scrapycluster.common.request;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields a request schema lists and requires, and whether it allows others, read once from
 * the schema, to tell how far a request that does not match it is from doing so
 * ({@link SchemaFit}).
 */
public final class SchemaShape {

    private final Set<String> properties = new HashSet<>();
    private final List<String> required = new ArrayList<>();
    private final boolean closed;

    public SchemaShape(RequestSchema schema) {
        JsonNode document = schema.document();
        document.path("properties").fieldNames().forEachRemaining(properties::add);
        document.path("required").forEach(name -> required.add(name.asText()));
        this.closed = !document.path("additionalProperties").asBoolean(true);
    }

    /**
     * How well {@code request}, which has {@code violations} violations of the schema, fits it.
     */
    public SchemaFit fit(JsonNode request, int violations) {
        return new SchemaFit(distance(request), violations, listedFields(request));
    }

    /**
     * The required fields {@code request} lacks, plus the fields it has that a closed schema
     * ({@code additionalProperties: false}) does not list; 0 for a request that is not an object.
     */
    int distance(JsonNode request) {
        if (!request.isObject()) {
            return 0;
        }
        int distance = 0;
        for (String name : required) {
            if (!request.has(name)) {
                distance++;
            }
        }
        if (closed) {
            for (var names = request.fieldNames(); names.hasNext(); ) {
                if (!properties.contains(names.next())) {
                    distance++;
                }
            }
        }
        return distance;
    }

    /** How many fields of {@code request} the schema lists: more means the request was meant for this schema. */
    int listedFields(JsonNode request) {
        int listed = 0;
        for (var names = request.fieldNames(); names.hasNext(); ) {
            if (properties.contains(names.next())) {
                listed++;
            }
        }
        return listed;
    }
}
