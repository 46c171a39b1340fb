package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** A plugin schema's patterns: matched in linear time, anywhere in the value unless anchored, refused when RE2 cannot run them. */
class SchemaPatternsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPatternTheJdkMatchesByRecursionChecksAHugeValueWithoutOverflowingTheStack() throws Exception {
        RequestValidator validator = validator("^(a|b)*$");

        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request("ab".repeat(500_000))));
        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class,
                validator.validate(request("ab".repeat(500_000) + "c")));
        assertEquals("word", invalid.violations().getFirst().path());
    }

    @Test
    void anUnanchoredPatternMatchesAnywhereInTheValue() throws Exception {
        RequestValidator validator = validator("[0-9]{3}");

        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request("room 101, left")));
        assertInstanceOf(ValidationResult.Invalid.class, validator.validate(request("room 10")));
    }

    @Test
    void aSchemaWhosePatternCannotRunInLinearTimeIsInvalid() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> validator("^(?!admin).*$"));

        assertTrue(refused.getMessage().contains("the pattern ^(?!admin).*$ is not a regular expression that runs in linear time"),
                refused.getMessage());
    }

    private static RequestValidator validator(String pattern) throws Exception {
        ObjectNode schema = (ObjectNode) JSON.readTree("""
                {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["word"],
                 "properties": {"word": {"type": "string"}}}""");
        ((ObjectNode) schema.at("/properties/word")).put("pattern", pattern);
        return new RequestValidator(new RequestSchema("worded", schema));
    }

    private static JsonNode request(String word) {
        return JSON.createObjectNode().put("word", word);
    }
}
