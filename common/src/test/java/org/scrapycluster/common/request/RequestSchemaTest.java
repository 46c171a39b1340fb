package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RequestSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String PLUGIN_SCHEMA = """
            {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "additionalProperties": false,
             "required": ["uuid"],
             "properties": {
               "uuid": {"type": "string"},
               "options": {"type": "object", "properties": {
                 "depth": {"type": "integer", "maximum": 5, "exclusiveMaximum": true, "default": 1},
                 "mode": {"type": ["string", "null"], "default": null}}},
               "targets": {"type": "array", "items": {"type": "object", "properties": {"weight": {"type": "number", "default": 1.5}}}}}}
            """;

    @Test
    void theDefaultCrawlLimitsAreTheOriginalSchema() {
        assertEquals(RequestSchema.builtIn(RequestSchema.SCRAPER), RequestSchema.scraper(CrawlLimits.ORIGINAL));
        JsonNode raised = RequestSchema.scraper(new CrawlLimits(10, 5000)).document();
        assertEquals(10, raised.at("/properties/maxdepth/maximum").asLong());
        assertEquals(5000, raised.at("/properties/domain_max_pages/maximum").asLong());
        assertEquals(3, RequestSchema.builtIn(RequestSchema.SCRAPER).document().at("/properties/maxdepth/maximum").asLong(),
                "the built-in schema is not changed");
    }

    @Test
    void everyBuiltInSchemaIsAStrictDraft4Object() {
        for (String name : List.of(RequestSchema.SCRAPER, RequestSchema.ACTION, RequestSchema.STATS, RequestSchema.ZOOKEEPER)) {
            JsonNode document = RequestSchema.builtIn(name).document();
            assertEquals("http://json-schema.org/draft-04/schema#", document.get("$schema").asText(), name);
            assertEquals("object", document.get("type").asText(), name);
            assertEquals(false, document.get("additionalProperties").asBoolean(true), name);
        }
    }

    @Test
    void unknownNamesAndPropertiesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RequestSchema.builtIn("crawl"));
        assertThrows(IllegalArgumentException.class, () -> RequestSchema.builtIn(RequestSchema.ACTION).withMaximum("maxdepth", 5));
        assertThrows(IllegalArgumentException.class, () -> new CrawlLimits(-1, 10));
        assertThrows(IllegalArgumentException.class, () -> new RequestSchema("broken", JSON.readTree("[]")));
    }

    @Test
    void aPluginSchemaGetsNestedDefaultsAndReadableViolations() throws Exception {
        RequestSchema schema = RequestSchema.read("plugin", new ByteArrayInputStream(PLUGIN_SCHEMA.getBytes(StandardCharsets.UTF_8)));
        RequestValidator validator = new RequestValidator(schema);

        ValidationResult.Valid valid = assertInstanceOf(ValidationResult.Valid.class,
                validator.validate(JSON.readTree("{\"uuid\":\"u1\",\"options\":{},\"targets\":[{},{\"weight\":2}]}")));
        assertEquals(JSON.readTree("{\"uuid\":\"u1\",\"options\":{\"depth\":1,\"mode\":null},\"targets\":[{\"weight\":1.5},{\"weight\":2}]}"),
                valid.request());

        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class,
                validator.validate(JSON.readTree("{\"options\":{\"depth\":5,\"mode\":7},\"targets\":[{\"weight\":\"heavy\"}]}")));
        assertEquals(List.of(
                "options.depth: must be less than 5, was 5",
                "options.mode: must be a string or null, was 7",
                "targets[0].weight: must be a number, was \"heavy\"",
                "uuid: is required"),
                invalid.violations().stream().map(Violation::toString).toList());
    }

    @Test
    void aRequestMustBeAnObject() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.STATS));
        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class, validator.validate(JSON.readTree("\"stats\"")));
        assertEquals("request: must be a JSON object, was a string", invalid.reason());
    }
}
