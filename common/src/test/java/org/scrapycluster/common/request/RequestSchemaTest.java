package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
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

    /** The compiler alone took "type": 5 for a schema that only the number 5 matches, and its violation for every request. */
    @Test
    void aSchemaThatBreaksDraft4IsRefusedWithWhereItDoes() throws Exception {
        for (String broken : List.of("{\"type\": 5}", "{\"properties\": {\"url\": {\"type\": \"text\"}}}",
                "{\"required\": \"url\"}", "{\"properties\": {\"depth\": {\"maximum\": \"3\"}}}")) {
            RequestSchema schema = new RequestSchema("bad", JSON.readTree(broken));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new RequestValidator(schema), broken);
            assertTrue(refused.getMessage().startsWith("the request schema bad is not a valid JSON schema (Draft 4): /"),
                    refused.getMessage());
        }
        new RequestValidator(new RequestSchema("plugin", JSON.readTree(PLUGIN_SCHEMA)));
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
    void aPluginSchemasApplicatorsJudgeThroughTheTally() throws Exception {
        RequestSchema schema = RequestSchema.read("applicators", new ByteArrayInputStream("""
                {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                 "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
                 "oneOf": [{"required": ["c"]}, {"required": ["d"]}],
                 "not": {"required": ["e"]},
                 "properties": {"list": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}}
                """.getBytes(StandardCharsets.UTF_8)));
        RequestValidator validator = new RequestValidator(schema);

        assertInstanceOf(ValidationResult.Valid.class, validator.validate(JSON.readTree("{\"a\":1,\"c\":1,\"list\":[\"x\",2]}")));
        assertInstanceOf(ValidationResult.Valid.class, validator.validate(JSON.readTree("{\"b\":1,\"d\":1}")));
        for (String invalid : List.of("{\"c\":1}", "{\"a\":1}", "{\"a\":1,\"c\":1,\"d\":1}", "{\"a\":1,\"c\":1,\"e\":1}",
                "{\"a\":1,\"c\":1,\"list\":[true]}")) {
            ValidationResult.Invalid refused = assertInstanceOf(ValidationResult.Invalid.class, validator.validate(JSON.readTree(invalid)),
                    invalid);
            assertTrue(refused.count() >= 1 && !refused.violations().isEmpty(), invalid + ": " + refused);
        }
    }

    @Test
    void aListsRepeatedItemsAreOneViolation() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));

        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class, validator.validate(JSON.readTree(
                "{\"url\":\"http://example.com/\",\"appid\":\"a1\",\"crawlid\":\"c\",\"allowed_domains\":[\"x\",\"x\",\"x\",\"y\",\"y\"],"
                        + "\"deny_regex\":[\"z\",\"z\"]}")));

        assertEquals(List.of("allowed_domains: must not list the same item twice", "appid: must be at least 3 characters long, was 2",
                "deny_regex: must not list the same item twice"), invalid.details());
        assertEquals(3, invalid.count());
    }

    @Test
    void aRequestMustBeAnObject() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.STATS));
        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class, validator.validate(JSON.readTree("\"stats\"")));
        assertEquals("request: must be a JSON object, was a string", invalid.reason());
    }

    @Test
    void aRequestBreakingHundredsOfThousandsOfRulesIsDescribedByTheFirstItBreaksAndCounted() throws Exception {
        StringBuilder request = new StringBuilder(
                "{\"url\":\"http://example.com/\",\"appid\":\"\",\"crawlid\":\"c\",\"allowed_domains\":[0");
        for (int i = 1; i < 300_000; i++) {
            request.append(',').append(i % 10);
        }
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));

        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class,
                validator.validate(JSON.readTree(request.append("]}").toString())));

        assertEquals(300_000 + 1 + 1, invalid.count(), "each item's type, the list's repeats, the empty appid");
        assertEquals(ListedDetails.MAX_LISTED, invalid.violations().size());
        assertEquals(invalid.violations().stream().sorted(Comparator.comparing(Violation::path).thenComparing(Violation::message)).toList(),
                invalid.violations());
        assertEquals(List.of("allowed_domains: must not list the same item twice", "allowed_domains[0]: must be a string, was 0"),
                invalid.details().subList(0, 2));
        assertTrue(invalid.details().contains("appid: must be at least 3 characters long, was 0"), "the appid's length, though the "
                + "schema found it after the items' errors");
        assertTrue(invalid.details().contains("allowed_domains[97]: must be a string, was 7"), invalid.details().toString());
        assertEquals(1, invalid.details().stream().filter(detail -> detail.startsWith("appid:")).count(),
                "an empty appid the schema refused is not refused again as an empty key part, though its rule is not listed");
        List<String> reason = List.of(invalid.reason().split("; "));
        assertEquals(ListedDetails.MAX_LISTED, reason.size());
        assertEquals("request: " + (invalid.count() - ListedDetails.MAX_LISTED + 1) + " more violations not listed", reason.getLast());
    }
}
