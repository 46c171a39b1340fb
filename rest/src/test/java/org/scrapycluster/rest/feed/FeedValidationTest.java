package org.scrapycluster.rest.feed;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.scrapycluster.common.request.ListedDetails;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;

/**
 * The gateway checks fed requests as the Kafka monitor does: every request fixture of the schema
 * work ({@code common/src/test/resources/requests}) is passed or refused alike, with the same
 * violations, under the fixture's settings.
 */
class FeedValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> validRequestsPass() throws IOException, URISyntaxException {
        return fixtures("valid").map(fixture -> DynamicTest.dynamicTest(fixture.get("about").asText(),
                () -> assertDoesNotThrow(() -> validation(fixture).check(fixture.get("request")))));
    }

    @TestFactory
    Stream<DynamicTest> invalidRequestsAreRefusedWithTheirViolations() throws IOException, URISyntaxException {
        return fixtures("invalid").map(fixture -> DynamicTest.dynamicTest(fixture.get("about").asText(), () -> {
            RefusedRequestException refused = assertThrows(RefusedRequestException.class,
                    () -> validation(fixture).check(fixture.get("request")));
            assertEquals(Refusal.SCHEMA, refused.refusal());
            List<String> violations = new ArrayList<>();
            fixture.get("violations").forEach(violation -> violations.add(violation.asText()));
            assertEquals("Does not match the " + fixture.get("schema").asText() + " schema: " + String.join("; ", violations),
                    refused.detail());
        }));
    }

    @Test
    void aZookeeperRequestItsHandlerWouldRefuseIsRefusedWithTheHandlersWords() throws IOException {
        FeedValidation validation = FeedValidation.from(Settings.load("rest", new SettingsSources(null, Map.of(), Map.of())));
        RefusedRequestException noWindow = assertThrows(RefusedRequestException.class, () -> validation.check(JSON.readTree(
                "{\"uuid\": \"z1\", \"appid\": \"tour\", \"action\": \"domain-update\", \"domain\": \"example.com\", \"hits\": 60}")));
        assertEquals(Refusal.SCHEMA, noWindow.refusal());
        assertEquals("'hits' and 'window' not set for domain update: window: must be set, and not 0, for a domain-update "
                + "(0 is also what it is when left out)", noWindow.detail());
        assertDoesNotThrow(() -> validation.check(JSON.readTree(
                "{\"uuid\": \"z2\", \"appid\": \"tour\", \"action\": \"domain-update\", \"domain\": \"example.com\", "
                        + "\"hits\": 60, \"window\": 60}")));
        assertDoesNotThrow(() -> validation.check(JSON.readTree(
                "{\"uuid\": \"z3\", \"appid\": \"tour\", \"action\": \"domain-remove\", \"domain\": \"example.com\"}")));
    }

    @Test
    void turnedOffAnyJsonPasses() throws IOException {
        FeedValidation off = FeedValidation.from(Settings.load("rest", new SettingsSources(null, Map.of(),
                Map.of("FEED_VALIDATION", "false"))));
        assertDoesNotThrow(() -> off.check(JSON.readTree("[1, 2, 3]")));
        assertDoesNotThrow(() -> off.check(JSON.readTree("{\"anything\": \"goes\", \"maxdepth\": 99}")));
    }

    @Test
    void aRequestBreakingThousandsOfRulesIsToldTheFirstHundredAndHowManyMore() throws IOException {
        FeedValidation validation = FeedValidation.from(Settings.load("rest", new SettingsSources(null, Map.of(), Map.of())));
        JsonNode request = JSON.readTree("{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"c\", "
                + "\"deny_extensions\": [" + String.join(", ", Collections.nCopies(3_000, "1")) + "]}");

        RefusedRequestException refused = assertThrows(RefusedRequestException.class, () -> validation.check(request));

        List<String> listed = List.of(refused.detail().substring("Does not match the scraper schema: ".length()).split("; "));
        assertEquals(ListedDetails.MAX_LISTED, listed.size(), refused.detail().substring(0, 300));
        assertTrue(listed.getLast().matches("request: [0-9]{4} more violations not listed"), listed.getLast());
    }

    private static FeedValidation validation(JsonNode fixture) {
        Map<String, String> values = new LinkedHashMap<>();
        fixture.path("settings").properties().forEach(setting -> values.put(setting.getKey(), setting.getValue().asText()));
        return FeedValidation.from(Settings.load("rest", new SettingsSources(null, Map.of(), values)));
    }

    private static Stream<JsonNode> fixtures(String kind) throws IOException, URISyntaxException {
        Path directory = Path.of(FeedValidationTest.class.getResource("/requests/" + kind).toURI());
        List<JsonNode> fixtures = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.sorted().toList()) {
                fixtures.add(JSON.readTree(file.toFile()));
            }
        }
        return fixtures.stream();
    }
}
