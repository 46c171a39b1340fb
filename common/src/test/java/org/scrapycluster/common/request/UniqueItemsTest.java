package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** A schema's {@code uniqueItems}: repeats found among strings that share a hash, and among other values, in arrays only. */
class UniqueItemsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final RequestValidator crawls = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));

    @Test
    void stringsThatShareOneHashAreAllDifferentItemsAndARepeatAmongThemIsFound() {
        ObjectNode request = JSON.createObjectNode().put("url", "http://example.com/").put("appid", "app").put("crawlid", "c");
        ArrayNode domains = request.putArray("allowed_domains");
        for (int i = 0; i < 4096; i++) {
            domains.add(sharingOneHash(i, 12));
        }
        assertEquals(sharingOneHash(0, 12).hashCode(), sharingOneHash(4095, 12).hashCode());

        ValidationResult distinct = crawls.validate(request);
        assertInstanceOf(ValidationResult.Valid.class, distinct, distinct::toString);

        domains.add(sharingOneHash(2024, 12));
        ValidationResult.Invalid repeated = assertInstanceOf(ValidationResult.Invalid.class, crawls.validate(request));
        assertEquals(1, repeated.violations().size(), repeated.toString());
        assertEquals("allowed_domains", repeated.violations().getFirst().path());
        assertEquals("must not list the same item twice", repeated.violations().getFirst().message());
    }

    @Test
    void valuesOtherThanStringsAreEqualByTheirJsonWithAnObjectsMembersInAnyOrder() throws Exception {
        RequestValidator validator = validator("{\"type\": \"array\", \"uniqueItems\": true}");

        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request("[1, \"1\", [1], {\"a\": 1}, {\"a\": \"1\"}, null]")));
        assertInstanceOf(ValidationResult.Invalid.class, validator.validate(request("[{\"a\": 1, \"b\": [2]}, {\"b\": [2], \"a\": 1}]")));
        assertInstanceOf(ValidationResult.Invalid.class, validator.validate(request("[[\"x\", {\"k\": true}], [\"x\", {\"k\": true}]]")));
        assertInstanceOf(ValidationResult.Invalid.class, validator.validate(request("[null, 2, null]")));
    }

    @Test
    void onlyAnArrayIsCheckedForRepeatsAsDraft4Says() throws Exception {
        RequestValidator validator = validator("{\"uniqueItems\": true}");

        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request("{\"a\": 1, \"b\": 1}")),
                "an object's values may repeat: uniqueItems applies to arrays");
    }

    /** The {@code n}th string of {@code blocks} two-letter blocks, each "Aa" or "BB", which hash alike. */
    private static String sharingOneHash(int n, int blocks) {
        StringBuilder text = new StringBuilder(blocks * 2);
        for (int bit = blocks - 1; bit >= 0; bit--) {
            text.append((n >> bit & 1) == 0 ? "Aa" : "BB");
        }
        return text.toString();
    }

    private static RequestValidator validator(String listSchema) throws Exception {
        ObjectNode schema = (ObjectNode) JSON.readTree("""
                {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {}}""");
        ((ObjectNode) schema.get("properties")).set("list", JSON.readTree(listSchema));
        return new RequestValidator(new RequestSchema("listed", schema));
    }

    private static JsonNode request(String list) throws Exception {
        return JSON.createObjectNode().set("list", JSON.readTree(list));
    }
}
