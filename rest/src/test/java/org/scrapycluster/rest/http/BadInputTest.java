package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.OutboundResponder;
import org.scrapycluster.rest.testing.RunningGateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Every class of bad input gets the envelope, its status and a count in
 * {@code rest_requests_refused_total{reason}}, and nothing else is lost: after each, the gateway
 * still feeds a good request.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 1024;
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 \\d{3} [^\\r]*");
    private static final String CHUNKED_FEED = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String GOOD = "{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"%s\"}";

    private AnsweredGateway answered;
    private RunningGateway gateway;
    private OutboundResponder responder;
    private GatewayClient client;
    private int goodRequests;

    @BeforeAll
    void start(EmbeddedStack stack) {
        answered = AnsweredGateway.start(stack, settings -> settings.set("JSON_MAX_DOCUMENT_BYTES", Integer.toString(MAX_BODY))
                .set("WAIT_FOR_RESPONSE_TIME", "1"));
        gateway = answered.gateway();
        responder = answered.responder();
        client = gateway.client();
    }

    @AfterAll
    void stop() {
        answered.close();
    }

    @AfterEach
    void aGoodRequestStillGoesThrough() {
        String crawlid = "good-" + ++goodRequests;
        assertEquals(200, client.postJson("/feed", GOOD.formatted(crawlid)).status());
        responder.awaitRequest("crawlid", crawlid);
    }

    @Test
    void malformedJson() {
        refused(Refusal.MALFORMED_JSON, 400, "The payload must be valid JSON.", () -> client.postJson("/feed", "{\"url\": [}"));
        refused(Refusal.MALFORMED_JSON, 400, "The payload must be valid JSON.", () -> client.postJson("/poll", ""));
    }

    @Test
    void bodyNotUtf8() {
        byte[] latin1 = "{\"url\": \"http://caf\u00e9.example/\"}".getBytes(StandardCharsets.ISO_8859_1);
        refused(Refusal.MALFORMED_JSON, 400, "The payload must be valid JSON.", () -> client.post("/feed", "application/json", latin1));
    }

    @Test
    void jsonNestedTooDeep() {
        String deep = "[".repeat(200) + "]".repeat(200);
        refused(Refusal.MALFORMED_JSON, 400, "The payload must be valid JSON.", () -> client.postJson("/feed", deep));
    }

    @Test
    void wrongOrMissingContentType() {
        byte[] json = GOOD.formatted("never-sent").getBytes(StandardCharsets.UTF_8);
        refused(Refusal.CONTENT_TYPE, 400, "The payload must be valid JSON.", () -> client.post("/feed", "text/plain", json));
        refused(Refusal.CONTENT_TYPE, 400, "The payload must be valid JSON.", () -> client.post("/feed", null, json));
    }

    @Test
    void aGzipBodyIsNamedAsSuch() throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
            gzip.write(GOOD.formatted("gzipped").getBytes(StandardCharsets.UTF_8));
        }
        JsonNode body = refused(Refusal.MALFORMED_JSON, 400, "The payload must be valid JSON.",
                () -> client.post("/feed", "application/json", compressed.toByteArray()));
        assertEquals("The body is gzip data (it starts with the bytes 1f 8b); send the JSON itself, without Content-Encoding",
                body.get("error").get("cause").asText());
    }

    @Test
    void requestTheKafkaMonitorWouldReject() {
        double sent = gateway.counter("rest.feed", "outcome", "sent");
        JsonNode body = refused(Refusal.SCHEMA, 400, "JSON did not validate against schema.",
                () -> client.postJson("/feed", "{\"url\": \"ftp://example.com/\", \"appid\": \"testapp\", \"crawlid\": \"ftp\"}"));
        assertEquals("Does not match the scraper schema: url: must be an http or https URL, not ftp:",
                body.get("error").get("cause").asText());
        assertEquals(sent, gateway.counter("rest.feed", "outcome", "sent"), "a refused request is not sent");
    }

    @Test
    void bodyLargerThanTheLimit() {
        byte[] huge = hugeJson();
        refused(Refusal.TOO_LARGE, 413, "The payload is too large.", () -> client.post("/feed", "application/json", huge));
    }

    @Test
    void bodyLargerThanTheLimitAnnouncedWithExpectContinue() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(client.base().resolve("/feed")).expectContinue(true)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(hugeJson())).build();
        refused(Refusal.TOO_LARGE, 413, "The payload is too large.", () -> send(request));
    }

    @Test
    void anExpectationOtherThan100ContinueIsRefusedInTheEnvelopeAndTheConnectionClosed() throws IOException {
        String reply = rawExchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Expect: 200-ok\r\nContent-Length: 2\r\n\r\n{}");
        assertEquals("HTTP/1.1 417 Expectation Failed", reply.isEmpty() ? "no answer" : reply.substring(0, reply.indexOf("\r\n")));
        JsonNode error = parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error");
        assertEquals("The gateway meets no expectation but Expect: 100-continue.", error.get("message").asText());
        assertEquals("Expect: 200-ok", error.get("cause").asText());
    }

    /**
     * A body sent after its request was refused on its head is never read as a request: Netty resets its decoder when it
     * refuses an expectation, and the gateway answered a body that was a request of its own, one a proxy in front never
     * saw (request smuggling). Sent with the head, or after the refusal came.
     */
    @ParameterizedTest(name = "{0}, body sent {1}")
    @CsvSource({"200-ok, with the head", "200-ok, after the refusal", "100-continue, with the head", "100-continue, after the refusal"})
    void aBodySentAfterARefusalOfItsHeadIsNotReadAsARequest(String expectation, String when) throws IOException {
        String smuggled = "GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        int announced = expectation.equals("100-continue") ? MAX_BODY * 2 : smuggled.length();
        String head = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: " + expectation
                + "\r\nContent-Length: " + announced + "\r\n\r\n";
        try (Socket socket = rawConnection()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String reply = "";
            if (when.equals("with the head")) {
                out.write((head + smuggled).getBytes(StandardCharsets.US_ASCII));
            } else {
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                reply = new String(in.readNBytes(12), StandardCharsets.US_ASCII); // the refusal has come
                out.write(smuggled.getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            reply += new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, statusLines(reply).size(), reply);
            assertFalse(reply.contains("\"access\""), reply);
        }
    }

    @Test
    void aClientThatClosesItsSideAfterItsRequestsStillGetsTheirAnswers() throws IOException {
        try (Socket socket = rawConnection()) {
            socket.getOutputStream().write(("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 200 OK"), statusLines(reply), "then the gateway closes the connection");
        }
    }

    @Test
    void aRequestLineOfAnotherHttpVersionIsRefusedAsNotHttp() throws IOException {
        String reply = rawExchange("GET /access HTTP/2.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertEquals("The gateway speaks HTTP/1.1 and HTTP/1.0, not HTTP/2.0.",
                parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("cause").asText(), reply);
    }

    @Test
    void chunkedBodyLargerThanTheLimit() throws Exception {
        byte[] huge = hugeJson();
        HttpRequest request = HttpRequest.newBuilder(client.base().resolve("/feed")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge))).build();
        refused(Refusal.TOO_LARGE, 413, "The payload is too large.", () -> send(request));
    }

    @Test
    void aClientStillSendingItsRefusedChunkedBodyReadsThe413ToItsEnd() throws Exception {
        double before = gateway.counter("rest.requests.refused", "reason", Refusal.TOO_LARGE.reason());
        byte[] chunk = chunk(MAX_BODY);
        try (Socket socket = rawConnection()) {
            OutputStream out = socket.getOutputStream();
            out.write(CHUNKED_FEED.getBytes(StandardCharsets.US_ASCII));
            out.write(chunk);
            out.write(chunk);
            out.flush();
            InputStream in = socket.getInputStream();
            int first = in.read();
            // The answer has come; the client goes on sending its body, as most do. Each write
            // would fail on a connection closed with bytes unread (the kernel resets it).
            for (int i = 0; i < 20; i++) {
                out.write(chunk);
                out.flush();
                Thread.sleep(10);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = (char) first + new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("HTTP/1.1 413 Request Entity Too Large", reply.substring(0, reply.indexOf("\r\n")));
            assertEquals("The payload is too large.", parse(reply.substring(reply.indexOf("\r\n\r\n") + 4))
                    .get("error").get("message").asText());
        }
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", Refusal.TOO_LARGE.reason()));
    }

    @Test
    void aClientThatNeitherFinishesItsRefusedBodyNorClosesIsClosedAfterTheAnswer() throws Exception {
        try (Socket socket = rawConnection()) {
            OutputStream out = socket.getOutputStream();
            out.write(CHUNKED_FEED.getBytes(StandardCharsets.US_ASCII));
            out.write(chunk(MAX_BODY * 2));
            out.flush();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("HTTP/1.1 413 Request Entity Too Large", reply.substring(0, reply.indexOf("\r\n")));
            // The server has shut its side; it reads on for a while, then closes the socket.
            Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100)).until(() -> {
                try {
                    out.write(chunk(16));
                    out.flush();
                    return false;
                } catch (IOException closed) {
                    return true;
                }
            });
        }
    }

    @Test
    void unknownPaths() {
        refused(Refusal.UNKNOWN_PATH, 404, "The desired endpoint does not exist", () -> client.get("/admin"));
        refused(Refusal.UNKNOWN_PATH, 404, "The desired endpoint does not exist", () -> client.postJson("/feeds", "{}"));
        refused(Refusal.UNKNOWN_PATH, 404, "The desired endpoint does not exist", () -> client.get("/ui/%2e%2e/pom.xml"));
    }

    @Test
    void wrongMethods() {
        refused(Refusal.METHOD, 405, "The method is not allowed for the requested URL.", () -> client.get("/poll"));
        refused(Refusal.METHOD, 405, "The method is not allowed for the requested URL.",
                () -> client.method("PUT", "/feed", "application/json", "{}".getBytes(StandardCharsets.UTF_8)));
        refused(Refusal.METHOD, 405, "The method is not allowed for the requested URL.",
                () -> client.method("DELETE", "/", null, new byte[0]));
        refused(Refusal.METHOD, 405, "The method is not allowed for the requested URL.", () -> client.postJson("/metrics", "{}"));
    }

    /** Each refusal is a line of the request log that says what was wrong, as the answer does; before routing too. */
    @Test
    void everyRefusalIsALineOfTheRequestLogWithWhatWasWrong() throws IOException {
        List<ILoggingEvent> events;
        try (CapturedLog log = CapturedLog.start(Dispatcher.class, Level.INFO)) {
            // the absolute form, with a query that may carry a token, and with user information: neither is logged
            rawExchange("POST http://127.0.0.1/feed?token=secret HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}");
            rawExchange("POST http://user:secret@127.0.0.1/feed HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            client.post("/feed", "text/plain", "{}".getBytes(StandardCharsets.UTF_8));
            rawExchange("HELLO\r\n\r\n");
            client.postJson("/metrics", "{}");
            events = log.events();
        }
        List<String> lines = events.stream().map(event -> event.getFormattedMessage() + " | " + value(event, "error") + " | "
                + value(event, "cause")).filter(line -> !line.startsWith("- - 408")).toList(); // other tests' idle connections
        assertEquals(5, lines.size(), lines.toString());
        assertEquals("POST /feed 417 | The gateway meets no expectation but Expect: 100-continue. | Expect: 200-ok", lines.get(0));
        assertEquals("POST /feed 400 | The request is not valid HTTP. | The request's host is not a host name or address, with a port"
                + " or without.", lines.get(1));
        assertTrue(lines.get(2).startsWith("POST /feed 400 | The payload must be valid JSON. | ") && lines.get(2).contains("text/plain"),
                lines.get(2));
        assertTrue(lines.get(3).startsWith("- - 400 | The request is not valid HTTP. | ") && lines.get(3).contains("HTTP/1.1"),
                lines.get(3));
        assertEquals("POST /metrics 405 | The method is not allowed for the requested URL. | null", lines.get(4));
    }

    private static Object value(ILoggingEvent event, String key) {
        return event.getKeyValuePairs().stream().filter(pair -> pair.key.equals(key)).findFirst().map(pair -> pair.value).orElse(null);
    }

    @Test
    void notHttpAtAll() throws IOException {
        double before = gateway.counter("rest.requests.refused", "reason", Refusal.MALFORMED_HTTP.reason());
        String reply = rawExchange("GET /" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        String body = reply.substring(reply.indexOf("\r\n\r\n") + 4);
        assertEquals("HTTP/1.1 400 Bad Request", reply.substring(0, reply.indexOf("\r\n")));
        assertEquals("The request is not valid HTTP.", parse(body).get("error").get("message").asText());
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", Refusal.MALFORMED_HTTP.reason()));
    }

    /** Netty takes a request line without a version for HTTP/0.9: the cause says what the gateway reads instead. */
    @ParameterizedTest
    @ValueSource(strings = {"HELLO\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"})
    void aRequestLineWithoutAnHttp1VersionSaysWhatTheGatewaySpeaks(String request) throws IOException {
        String reply = rawExchange(request);
        String body = reply.substring(reply.indexOf("\r\n\r\n") + 4);
        assertEquals("HTTP/1.1 400 Bad Request", reply.substring(0, reply.indexOf("\r\n")));
        assertTrue(parse(body).get("error").get("cause").asText().toLowerCase(Locale.ROOT).contains("gateway speaks http/1.1 and http/1.0"),
                body);
    }

    @Test
    void aPathThatIsNotPercentEncodedIsRefusedAsNotHttp() throws IOException {
        double before = gateway.counter("rest.requests.refused", "reason", Refusal.MALFORMED_HTTP.reason());
        String reply = rawExchange("GET /%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 400 Bad Request", reply.isEmpty() ? "no answer" : reply.substring(0, reply.indexOf("\r\n")));
        assertEquals("The request is not valid HTTP.", parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("message").asText());
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", Refusal.MALFORMED_HTTP.reason()));
        // the connection was not dropped under the answer of a request before it
        assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 400 Bad Request", "HTTP/1.1 200 OK"), statusLines(rawExchange(
                waitingFeed("b-before-bad-path") + "GET /ui/%2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                        + "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")));
    }

    @Test
    void anHttp11RequestNamesItsHostOnce() throws IOException {
        for (String head : List.of("GET /access HTTP/1.1\r\n", "GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n")) {
            String reply = rawExchange(head + "Connection: close\r\n\r\n");
            assertEquals("HTTP/1.1 400 Bad Request", reply.isEmpty() ? "no answer" : reply.substring(0, reply.indexOf("\r\n")), head);
            assertEquals("The request is not valid HTTP.", parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("message").asText());
        }
        assertEquals(List.of("HTTP/1.1 200 OK"), statusLines(rawExchange("GET /access HTTP/1.0\r\n\r\n")), "HTTP/1.0 needs none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Host:", "Host: a b", "Host: 127.0.0.1/x", "Host: \"127.0.0.1\""})
    void aHostThatIsNotAHostIsRefusedAsNotHttp(String host) throws IOException {
        String reply = rawExchange("GET /access HTTP/1.1\r\n" + host + "\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 400 Bad Request", reply.isEmpty() ? "no answer" : reply.substring(0, reply.indexOf("\r\n")), host);
        assertEquals("The request's host is not a host name or address, with a port or without.",
                parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("cause").asText());
    }

    /**
     * The decoder frames a body as chunked when chunked is among the codings: the body of a request with another coding
     * too would be read as compressed JSON. A coding list the decoder itself refuses (chunked twice, or not last) is not
     * valid HTTP. Either way nothing after the request is read as another.
     */
    @ParameterizedTest
    @CsvSource(delimiterString = "|", value = {"gzip, chunked|HTTP/1.1 501 Not Implemented", "foo, chunked|HTTP/1.1 501 Not Implemented",
        "chunked, chunked|HTTP/1.1 400 Bad Request", "foo|HTTP/1.1 400 Bad Request", "chunked, foo|HTTP/1.1 400 Bad Request"})
    void aTransferCodingOtherThanChunkedAloneIsRefusedAndNothingAfterItRun(String coding, String status) throws IOException {
        String smuggled = "GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        String body = coding.endsWith("chunked") ? Integer.toHexString(smuggled.length()) + "\r\n" + smuggled + "\r\n0\r\n\r\n" : smuggled;
        String reply = rawExchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: " + coding + "\r\n\r\n" + body);
        assertEquals(List.of(status), statusLines(reply), reply);
    }

    @Test
    void aTransferCodingBesideChunkedIsCountedAndNamed() throws IOException {
        double before = gateway.counter("rest.requests.refused", "reason", Refusal.TRANSFER_CODING.reason());
        String reply = rawExchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n");
        assertEquals("The gateway takes no transfer coding but chunked.",
                parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("message").asText());
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", Refusal.TRANSFER_CODING.reason()));
    }

    @Test
    void aRequestLineInAbsoluteFormNamesItsHostItself() throws IOException {
        String authority = client.base().getHost() + ":" + client.base().getPort();
        assertEquals(List.of("HTTP/1.1 200 OK"), statusLines(rawExchange(
                "GET http://" + authority + "/access HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n")));
        assertEquals(List.of("HTTP/1.1 403 Forbidden"), statusLines(rawExchange(
                "GET http://evil.example/access HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n")),
                "the request line's host, not the header's");
    }

    /** Refused on its Expect, before its body: its answer comes after the answer of the request before it, which is not lost. */
    @ParameterizedTest(name = "Expect: {0}")
    @CsvSource({"200-ok, HTTP/1.1 417 Expectation Failed", "100-continue, HTTP/1.1 413 Request Entity Too Large"})
    void aRequestRefusedOnItsExpectationPipelinedBehindAWaitingFeedIsAnsweredAfterIt(String expectation, String refusal)
            throws IOException {
        int announced = expectation.equals("100-continue") ? MAX_BODY * 2 : 2;
        String refused = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: " + expectation
                + "\r\nContent-Length: " + announced + "\r\n\r\n";

        assertEquals(List.of("HTTP/1.1 200 OK", refusal), statusLines(rawExchange(waitingFeed("b-before-" + expectation) + refused)));
    }

    @Test
    void aRequestTooLargePipelinedBehindAWaitingFeedIsAnsweredAfterIt() throws IOException {
        String tooLarge = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + (MAX_BODY + 1) + "\r\n\r\n" + "a".repeat(MAX_BODY + 1);
        String last = "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

        assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 413 Request Entity Too Large", "HTTP/1.1 200 OK"),
                statusLines(rawExchange(waitingFeed("b-before-413") + tooLarge + last)));
    }

    @Test
    void aRequestNotHttpPipelinedBehindAWaitingFeedIsAnsweredAfterIt() throws IOException {
        String notHttp = "GET /" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

        assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 400 Bad Request"),
                statusLines(rawExchange(waitingFeed("b-before-400") + notHttp)));
    }

    /**
     * A request pipelined behind one whose answer ends the connection ({@code Connection: close}, HTTP/1.0 without
     * keep-alive) is not run: its answer could not reach the client, which takes it as never made. Run, the feed went
     * to Kafka unanswered.
     */
    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1\r\nConnection: close", "HTTP/1.0"})
    void aRequestPipelinedBehindOneThatEndsTheConnectionIsNotRun(String versionAndHeaders) throws IOException {
        String ending = "GET /health/live " + versionAndHeaders + "\r\nHost: 127.0.0.1\r\n\r\n";
        String behind = GOOD.formatted("behind-" + versionAndHeaders.length());
        String feed = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + behind.length() + "\r\n\r\n" + behind;
        double sent = gateway.counter("rest.feed", "outcome", "sent");

        String replies = rawExchange(ending + feed);

        assertEquals(1, STATUS_LINE.matcher(replies).results().count(), replies);
        assertTrue(replies.startsWith("HTTP/1.1 200 OK"), replies);
        aGoodRequestStillGoesThrough(); // after the request behind, had it run
        assertEquals(sent + 1, gateway.counter("rest.feed", "outcome", "sent"), "only the good request was fed");
    }

    /**
     * A {@code 100 Continue} is an answer of its request, so it comes after the answers of the requests before it: written
     * at once, it came first, and the client read it as its first request's.
     */
    @Test
    void aContinuePipelinedBehindAWaitingFeedComesAfterItsAnswer() throws IOException {
        String body = "{\"appid\": \"testapp\", \"uuid\": \"c-after-feed\", \"stats\": \"rest\"}";
        String expecting = "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Connection: close\r\nContent-Length: " + body.length() + "\r\n\r\n";
        try (Socket socket = rawConnection()) {
            OutputStream out = socket.getOutputStream();
            out.write((waitingFeed("c-before-continue") + expecting).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String replies = readUntil(socket.getInputStream(), "HTTP/1.1 100 Continue\r\n\r\n");
            assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 100 Continue"), statusLines(replies), replies);

            out.write(body.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            replies += new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 100 Continue", "HTTP/1.1 200 OK"), statusLines(replies), replies);
        }
    }

    /** What {@code in} gives until it has given {@code end} (or closes). */
    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        int b;
        while (!read.toString(StandardCharsets.UTF_8).endsWith(end) && (b = in.read()) != -1) {
            read.write(b);
        }
        return read.toString(StandardCharsets.UTF_8);
    }

    /** A feed nobody answers: the gateway answers it with a poll_id after WAIT_FOR_RESPONSE_TIME. */
    private static String waitingFeed(String uuid) {
        String request = "{\"appid\": \"testapp\", \"uuid\": \"" + uuid + "\", \"stats\": \"rest\"}";
        return "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + request.length() + "\r\n\r\n" + request;
    }

    /** The status lines of the replies, in order (a body ends without a line break, so a status line may follow it on its line). */
    private static List<String> statusLines(String replies) {
        return STATUS_LINE.matcher(replies).results().map(MatchResult::group).toList();
    }

    @Test
    void aCallNamingAnotherHostAsAPageRebindingItsNameWouldIsRefused() throws IOException {
        // a page of attacker.example whose name now resolves to 127.0.0.1 calls the gateway as its own site
        String feed = "POST /feed HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                + "Connection: close\r\n\r\n%s";
        String request = GOOD.formatted("rebound");
        double before = gateway.counter("rest.requests.refused", "reason", Refusal.HOST.reason());

        String reply = rawExchange(feed.formatted("attacker.example:" + client.base().getPort(), request.length(), request));

        assertEquals("HTTP/1.1 403 Forbidden", reply.substring(0, reply.indexOf("\r\n")));
        assertEquals(Refusal.HOST.message(), parse(reply.substring(reply.indexOf("\r\n\r\n") + 4)).get("error").get("message").asText());
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", Refusal.HOST.reason()));
        String local = rawExchange(feed.formatted("localhost:" + client.base().getPort(), request.length(), request));
        assertFalse(local.startsWith("HTTP/1.1 403"), local);
    }

    private JsonNode refused(Refusal refusal, int status, String message, java.util.function.Supplier<GatewayClient.Reply> call) {
        double before = gateway.counter("rest.requests.refused", "reason", refusal.reason());
        GatewayClient.Reply reply = call.get();
        assertEquals(status, reply.status(), reply.body());
        assertEquals("application/json", reply.contentType());
        JsonNode body = reply.json();
        assertEquals("FAILURE", body.get("status").asText());
        assertEquals(true, body.get("data").isNull());
        assertEquals(message, body.get("error").get("message").asText());
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", refusal.reason()));
        return body;
    }

    private GatewayClient.Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(60)).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            return new GatewayClient.Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body(), null);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code request} on a connection of its own and reads the reply until the gateway closes it. */
    private String rawExchange(String request) throws IOException {
        try (Socket socket = rawConnection()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Socket rawConnection() throws IOException {
        Socket socket = new Socket(client.base().getHost(), client.base().getPort());
        socket.setSoTimeout(60_000);
        return socket;
    }

    /** One chunk of a chunked body, {@code size} bytes of JSON-looking filler. */
    private static byte[] chunk(int size) {
        return (Integer.toHexString(size) + "\r\n" + "a".repeat(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] hugeJson() {
        char[] filler = new char[MAX_BODY * 4];
        Arrays.fill(filler, 'a');
        return ("{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"" + new String(filler) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
