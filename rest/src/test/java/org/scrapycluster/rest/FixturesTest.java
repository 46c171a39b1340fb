package org.scrapycluster.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.JsonShape;

/**
 * The request and answer shapes of docs/compatibility.md §6, kept as fixture files under
 * {@code fixtures/}: each file is one call to a real gateway on the embedded stack, with the
 * answer the stand-in monitor publishes for it, or the value parked in Redis before it, and the
 * status, headers and body expected, compared field by field.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixturesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AnsweredGateway answered;

    @BeforeAll
    void start(EmbeddedStack stack) {
        answered = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "1"));
    }

    @AfterAll
    void stop() {
        answered.close();
    }

    @TestFactory
    Stream<DynamicTest> everyFixture() throws IOException, URISyntaxException {
        Path directory = Path.of(FixturesTest.class.getResource("/fixtures").toURI());
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList().stream()
                    .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> check(JSON.readTree(file.toFile()))));
        }
    }

    private void check(JsonNode fixture) {
        JsonNode call = fixture.get("call");
        if (fixture.has("outbound")) {
            answered.responder().answerWith(call.get("body").get("uuid").asText(), fixture.get("outbound").toString());
        }
        if (fixture.has("parked")) {
            answered.redis().sync().set("rest:poll:" + fixture.get("parked").get("uuid").asText(), fixture.get("parked").get("value").asText());
        }
        String body = call.has("body_text") ? call.get("body_text").asText() : call.has("body") ? call.get("body").toString() : "";
        GatewayClient.Reply reply = answered.gateway().client().method(call.get("method").asText(), call.get("path").asText(),
                call.path("content_type").asText(null), body.getBytes(StandardCharsets.UTF_8));
        JsonNode expect = fixture.get("expect");
        assertEquals(expect.get("status").asInt(), reply.status(), reply.body());
        assertEquals("application/json", reply.contentType());
        for (Map.Entry<String, JsonNode> header : expect.path("headers").properties()) {
            assertEquals(header.getValue().asText(), reply.header(header.getKey()), header.getKey());
        }
        JsonShape.assertMatches(expect.get("body"), reply.json());
        if (fixture.has("parked")) {
            assertNull(answered.redis().sync().get("rest:poll:" + fixture.get("parked").get("uuid").asText()), "a polled answer is handed out once");
        }
    }
}
