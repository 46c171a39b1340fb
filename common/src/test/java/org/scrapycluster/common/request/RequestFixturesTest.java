package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.common.testing.ResourceFixtures;

/**
 * Every example and every limit of the four request schemas (docs/compatibility.md §2.4), one fixture file each under
 * {@code requests/valid} (with the validated object expected, defaults and field order included)
 * and {@code requests/invalid} (with the violations expected). The Kafka monitor's tests share these
 * files and read their {@code redis} field too: the Redis effects of a valid request (docs/compatibility.md §2.5).
 */
class RequestFixturesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> valid() {
        return ResourceFixtures.list("requests/valid").stream();
    }

    static Stream<String> invalid() {
        return ResourceFixtures.list("requests/invalid").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void valid(String file) throws Exception {
        JsonNode fixture = JSON.readTree(ResourceFixtures.text("requests/valid/" + file));
        JsonNode request = fixture.get("request");
        JsonNode untouched = request.deepCopy();

        ValidationResult result = validator(fixture).validate(request);

        ValidationResult.Valid valid = assertInstanceOf(ValidationResult.Valid.class, result, result::toString);
        JsonNode expected = fixture.get("validated");
        assertEquals(fieldNames(expected), fieldNames(valid.request()), "the fields and their order");
        expected.properties().forEach(field -> assertEquals(field.getValue(), valid.request().get(field.getKey()), field.getKey()));
        assertEquals(untouched, request, "the given request is not changed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalid(String file) throws Exception {
        JsonNode fixture = JSON.readTree(ResourceFixtures.text("requests/invalid/" + file));

        ValidationResult result = validator(fixture).validate(fixture.get("request"));

        ValidationResult.Invalid invalid = assertInstanceOf(ValidationResult.Invalid.class, result, result::toString);
        List<String> expected = new ArrayList<>();
        fixture.get("violations").forEach(violation -> expected.add(violation.asText()));
        assertEquals(expected, invalid.violations().stream().map(Violation::toString).toList());
        assertEquals(String.join("; ", expected), invalid.reason());
    }

    /** The validator of the fixture's schema under the fixture's {@code settings}, which override config/requests.yml. */
    private static RequestValidator validator(JsonNode fixture) {
        Map<String, String> overrides = new LinkedHashMap<>();
        fixture.path("settings").properties().forEach(setting -> overrides.put(setting.getKey(), setting.getValue().asText()));
        Settings settings = Settings.load("requests", new SettingsSources(null, Map.of(), overrides));
        String name = fixture.get("schema").asText();
        RequestSchema schema = name.equals(RequestSchema.SCRAPER) ? RequestSchema.scraper(CrawlLimits.from(settings)) : RequestSchema.builtIn(name);
        return new RequestValidator(schema, SafetyChecks.from(settings));
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
