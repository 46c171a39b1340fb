package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.rest.access.AccessEndpoint;

/**
 * What the dispatcher lets through with which key, on a router built as the gateway builds its
 * own: open paths and trees, routes by method, routes that declare their rule, and a route added
 * without a thought for keys.
 */
class DispatcherAccessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Callers KEYS = key -> key == null ? new Caller(Access.NONE, false, null)
            : switch (key) {
                case "w" -> new Caller(Access.WRITE, false, "0000000w");
                case "r" -> new Caller(Access.READ, false, "0000000r");
                default -> new Caller(Access.NONE, false, "0000000x");
            };

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void aGetRouteAddedWithoutThoughtNeedsAReadKey() {
        Dispatcher dispatcher = dispatcher(KEYS);
        assertEquals(401, dispatcher.answer(get("/live/queues", null)).status());
        assertEquals(401, dispatcher.answer(get("/live/queues", "wrong")).status());
        assertEquals(200, dispatcher.answer(get("/live/queues", "r")).status());
        assertEquals(200, dispatcher.answer(get("/live/queues", "w")).status());
    }

    @Test
    void otherMethodsNeedAWriteKeyUnlessTheRouteSaysOtherwise() {
        Dispatcher dispatcher = dispatcher(KEYS);
        assertEquals(403, dispatcher.answer(call(HttpMethod.POST, "/change", "r")).status());
        assertEquals(200, dispatcher.answer(call(HttpMethod.POST, "/change", "w")).status());
        assertEquals(200, dispatcher.answer(call(HttpMethod.POST, "/ask", "r")).status());
        assertEquals(401, dispatcher.answer(call(HttpMethod.POST, "/ask", null)).status());
    }

    @Test
    void withoutAValidKeyEveryPathAndMethodIsUnauthorizedNotUnknown() {
        Dispatcher dispatcher = dispatcher(KEYS);
        assertEquals(401, dispatcher.answer(get("/no-such-endpoint", null)).status());
        assertEquals(401, dispatcher.answer(get("/change", "wrong")).status(), "a method the route does not take");
        assertEquals(404, dispatcher.answer(get("/no-such-endpoint", "r")).status());
        assertEquals(405, dispatcher.answer(get("/change", "r")).status());
    }

    @Test
    void openTreesNeedNoKey() {
        Dispatcher dispatcher = dispatcher(KEYS);
        assertEquals(200, dispatcher.answer(get("/health", null)).status());
        assertEquals(200, dispatcher.answer(get("/health/ready", null)).status());
        assertEquals(200, dispatcher.answer(get("/health/ready", "wrong")).status());
        assertEquals(401, dispatcher.answer(get("/healthy", null)).status(), "a sibling of an open path is not open");
    }

    @Test
    void refusalsCarryTheEnvelopeTheChallengeAndACount() {
        Dispatcher dispatcher = dispatcher(KEYS);
        HttpAnswer unauthorized = dispatcher.answer(get("/live/queues", null));
        assertEquals("Bearer", unauthorized.headers().get("WWW-Authenticate"));
        JsonNode body = json(unauthorized);
        assertEquals("FAILURE", body.get("status").asText());
        assertEquals(Refusal.UNAUTHORIZED.message(), body.get("error").get("message").asText());
        HttpAnswer forbidden = dispatcher.answer(call(HttpMethod.POST, "/change", "r"));
        assertEquals(Refusal.FORBIDDEN.message(), json(forbidden).get("error").get("message").asText());
        assertEquals(1, meters.get("rest.requests.refused").tag("reason", "unauthorized").counter().count());
        assertEquals(1, meters.get("rest.requests.refused").tag("reason", "forbidden").counter().count());
    }

    @Test
    void optionsTellsTheMethodsOfAPathToAnyoneWhoMayRead() {
        Dispatcher dispatcher = dispatcher(KEYS);
        HttpAnswer options = dispatcher.answer(call(HttpMethod.OPTIONS, "/change", "r"));
        assertEquals(200, options.status(), "a read key may ask what a write route takes");
        assertEquals("OPTIONS, POST", options.headers().get("Allow"));
        assertEquals(0, options.body().length);
        assertEquals("GET, HEAD, OPTIONS", dispatcher.answer(call(HttpMethod.OPTIONS, "/health", null)).headers().get("Allow"));
        assertEquals(401, dispatcher.answer(call(HttpMethod.OPTIONS, "/change", null)).status(), "no key learns no methods");
        assertEquals(404, dispatcher.answer(call(HttpMethod.OPTIONS, "/no-such-endpoint", "r")).status());
        assertEquals("OPTIONS, POST", dispatcher.answer(get("/change", "r")).headers().get("Allow"), "a 405 lists OPTIONS too");
    }

    @Test
    void accessTellsWhatTheKeyAllows() {
        Dispatcher dispatcher = dispatcher(KEYS);
        assertEquals("write", json(dispatcher.answer(get("/access", "w"))).get("data").get("access").asText());
        JsonNode read = json(dispatcher.answer(get("/access", "r"))).get("data");
        assertEquals("read", read.get("access").asText());
        assertEquals(false, read.get("anonymous").asBoolean());
        assertEquals(401, dispatcher.answer(get("/access", null)).status());

        JsonNode anonymous = json(dispatcher(key -> Caller.ANONYMOUS).answer(get("/access", null))).get("data");
        assertEquals("write", anonymous.get("access").asText());
        assertEquals(true, anonymous.get("anonymous").asBoolean());
    }

    /** An audit tells a key holder probing paths from an anonymous caller. */
    @Test
    void theRequestLogNamesTheKeyOfEveryCallMadeWithOneWhateverItEarns() {
        Dispatcher dispatcher = dispatcher(KEYS, true);
        List<ILoggingEvent> events;
        try (CapturedLog log = CapturedLog.start(Dispatcher.class, Level.INFO)) {
            dispatcher.answer(get("/nope", "r"));
            dispatcher.answer(call(HttpMethod.DELETE, "/access", "r"));
            dispatcher.answer(call(HttpMethod.POST, "/change", "r"));
            dispatcher.answer(get("/access", "r"));
            dispatcher.answer(get("/nope", null));
            dispatcher.answer(get("/access", "unknown"));
            events = log.events();
        }
        List<String> logged = events.stream().filter(line -> line.getFormattedMessage().matches("[A-Z]+ /.*"))
                .map(line -> line.getFormattedMessage() + " key=" + line.getKeyValuePairs().stream()
                        .filter(pair -> pair.key.equals("key")).findFirst().map(pair -> pair.value).orElse("none"))
                .toList();
        assertEquals(List.of("GET /nope 404 key=0000000r", "DELETE /access 405 key=0000000r", "POST /change 403 key=0000000r",
                "GET /access 200 key=0000000r", "GET /nope 401 key=none", "GET /access 401 key=0000000x"), logged);
    }

    private Dispatcher dispatcher(Callers callers) {
        return dispatcher(callers, false);
    }

    private Dispatcher dispatcher(Callers callers, boolean accessLog) {
        Envelope envelope = new Envelope(new Json(new JsonLimits(64, 1_000_000, 1_048_576)));
        Endpoint ok = call -> envelope.success(null);
        Router router = Router.builder()
                .open("/health")
                .route("/health", "health", ok, HttpMethod.GET)
                .route("/health/ready", "ready", ok, HttpMethod.GET)
                .route("/healthy", "healthy", ok, HttpMethod.GET)
                .route("/live/queues", "queues", ok, HttpMethod.GET)
                .route("/change", "change", ok, HttpMethod.POST)
                .route("/ask", "ask", AccessRule.READ_ONLY, ok, HttpMethod.POST)
                .route("/access", "access", new AccessEndpoint(envelope), HttpMethod.GET)
                .build();
        return new Dispatcher(router, callers, AllowedHosts.of(InetAddress.getLoopbackAddress(), List.of()), envelope,
                new HttpMetrics(meters), accessLog);
    }

    private static HttpCall get(String path, String key) {
        return call(HttpMethod.GET, path, key);
    }

    private static HttpCall call(HttpMethod method, String path, String key) {
        return new HttpCall(method, path, "application/json", "{}".getBytes(StandardCharsets.UTF_8), key, null);
    }

    private static JsonNode json(HttpAnswer answer) {
        try {
            return JSON.readTree(answer.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
