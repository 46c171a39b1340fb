package org.scrapycluster.common.request;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Fills in schema defaults as the original's validator does: after an object's {@code properties}
 * are checked, every property that has a {@code default} and is absent is set to it ({@code null}
 * defaults insert JSON null; a property present with any value, null included, is left alone).
 * Nested objects and array items are filled from their own {@code properties}.
 */
final class DefaultValues {

    private DefaultValues() {
    }

    static void fill(ObjectNode instance, JsonNode schema) {
        JsonNode properties = schema.get("properties");
        if (properties == null || !properties.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            JsonNode subschema = property.getValue();
            JsonNode value = instance.get(property.getKey());
            if (value == null) {
                JsonNode fallback = subschema.get("default");
                if (fallback != null) {
                    instance.set(property.getKey(), fallback.deepCopy());
                }
            } else if (value.isObject()) {
                fill((ObjectNode) value, subschema);
            } else if (value.isArray() && subschema.path("items").isObject()) {
                for (JsonNode item : value) {
                    if (item.isObject()) {
                        fill((ObjectNode) item, subschema.get("items"));
                    }
                }
            }
        }
    }
}
