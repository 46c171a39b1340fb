package org.scrapycluster.rest.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.OutboundResponder;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * A gateway with a write key and a read key, through real HTTP and Kafka: who gets in where, what
 * reaches Kafka, and what is counted.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessTest {

    private static final String CRAWL = "{\"url\": \"http://example.com/\", \"appid\": \"testapp\", \"crawlid\": \"%s\"}";
    private static final String STOP = "{\"action\": \"stop\", \"appid\": \"testapp\", \"uuid\": \"%s\", \"spiderid\": \"link\"}";
    private static final String INFO = "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"%s\", \"spiderid\": \"link\"}";

    private AnsweredGateway answered;
    private RunningGateway gateway;
    private OutboundResponder responder;
    private GatewayClient anonymous;
    private GatewayClient writer;
    private GatewayClient reader;

    @BeforeAll
    void start(EmbeddedStack stack) {
        answered = AnsweredGateway.start(stack, settings -> settings.set("REST_API_KEYS", "w1")
                .set("REST_READ_KEYS", "r1").set("WAIT_FOR_RESPONSE_TIME", "0.2"));
        gateway = answered.gateway();
        responder = answered.responder();
        anonymous = gateway.client();
        writer = anonymous.withKey("w1");
        reader = anonymous.withKey("r1");
    }

    @AfterAll
    void stop() {
        answered.close();
    }

    @Test
    void noKeyOrAWrongKeyIs401WithTheEnvelopeAndAChallenge() {
        double refused = gateway.counter("rest.requests.refused", "reason", "unauthorized");
        for (GatewayClient client : new GatewayClient[] {anonymous, anonymous.withKey("w2")}) {
            GatewayClient.Reply reply = client.postJson("/feed", CRAWL.formatted("refused"));
            assertEquals(401, reply.status(), reply.body());
            assertEquals("Bearer", reply.header("WWW-Authenticate"));
            assertEquals("FAILURE", reply.json().get("status").asText());
            assertTrue(reply.json().get("error").get("message").asText().startsWith("A valid API key is required"));
        }
        assertEquals(refused + 2, gateway.counter("rest.requests.refused", "reason", "unauthorized"));
        for (String path : new String[] {"/", "/access", "/metrics"}) {
            assertEquals(401, anonymous.get(path).status(), path);
        }
    }

    @Test
    void aCallWithoutAKeyIsRefusedOnItsHeadWithoutBeingAskedForItsBody() throws IOException {
        double refused = gateway.counter("rest.requests.refused", "reason", "unauthorized");
        String reply = exchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000000\r\nExpect: 100-continue\r\n\r\n");
        assertTrue(reply.startsWith("HTTP/1.1 401 Unauthorized\r\n"), "no 100 Continue first: " + reply);
        assertTrue(reply.contains("WWW-Authenticate: Bearer"), reply);
        assertEquals(refused + 1, gateway.counter("rest.requests.refused", "reason", "unauthorized"));
    }

    /** Nor a call to an open path, whose endpoints read no body, nor one whose target is not valid. */
    @ParameterizedTest
    @CsvSource({"POST /health, 405 Method Not Allowed", "GET /ui/, 200 OK", "POST /%zz, 400 Bad Request"})
    void aCallThatReadsNoBodyIsAnsweredWithoutBeingAskedForIt(String request, String status) throws IOException {
        String reply = exchange(request + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000000\r\nExpect: 100-continue\r\n\r\n");
        assertTrue(reply.startsWith("HTTP/1.1 " + status + "\r\n"), "no 100 Continue first: " + reply);
    }

    @Test
    void aRefusedBodySentWithoutWaitingIsDroppedAndTheConnectionServesTheNextRequest() throws IOException {
        double sent = gateway.counter("rest.feed", "outcome", "sent");
        String body = CRAWL.formatted("unread");
        String reply = exchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body
                + "GET /ui/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertTrue(reply.startsWith("HTTP/1.1 401 Unauthorized\r\n"), reply);
        assertTrue(reply.contains("}HTTP/1.1 200 OK\r\n"), "the body was dropped, not read as a request: " + reply);
        assertEquals(sent, gateway.counter("rest.feed", "outcome", "sent"), "nothing of the refused call reached Kafka");
    }

    /**
     * HTTP/1.0, as nginx proxies by default: the refusal ends the connection while the body still comes, and closing a
     * socket with bytes unread would reset it, losing the answer in the client's buffer or failing its next write.
     */
    @Test
    void aRefusalThatEndsTheConnectionReachesAClientStillSendingItsBody() throws Exception {
        byte[] part = new byte[64 * 1024];
        Arrays.fill(part, (byte) ' ');
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /feed HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: " + 64 * part.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(part);
            out.flush();
            InputStream in = socket.getInputStream();
            int first = in.read();
            for (int i = 0; i < 20; i++) { // the answer has come; the client sends on, as most do
                out.write(part);
                out.flush();
                Thread.sleep(10);
            }
            String reply = (char) first + new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(reply.startsWith("HTTP/1.1 401 Unauthorized\r\n"), reply);
            assertTrue(reply.contains("connection: close\r\n"), reply);
        }
    }

    /** The decoder reads nothing after a broken chunk: the requests pipelined behind it are not kept waiting. */
    @Test
    void aRefusedBodyThatCannotBeDecodedEndsTheConnectionAfterTheRefusal() throws IOException {
        double timedOut = gateway.counter("rest.requests.refused", "reason", "header_timeout");
        String reply = exchange("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n"
                + "GET /ui/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        assertTrue(reply.startsWith("HTTP/1.1 401 Unauthorized\r\n"), reply);
        assertEquals(1, reply.split("HTTP/1\\.1 ").length - 1, "one answer, then the end: " + reply);
        assertEquals(timedOut, gateway.counter("rest.requests.refused", "reason", "header_timeout"), "not ended by a timeout");
    }

    @Test
    void aWriteKeyFeedsACrawlAsBearerOrAsXApiKey() throws Exception {
        GatewayClient.Reply bearer = writer.postJson("/feed", CRAWL.formatted("by-bearer"));
        assertEquals(200, bearer.status(), bearer.body());
        assertEquals("SUCCESS", bearer.json().get("status").asText());
        responder.awaitRequest("crawlid", "by-bearer");

        GatewayClient.Reply header = anonymous.send(HttpRequest.newBuilder(anonymous.base().resolve("/feed"))
                .header("Content-Type", "application/json").header("X-Api-Key", "w1")
                .POST(HttpRequest.BodyPublishers.ofString(CRAWL.formatted("by-header"))));
        assertEquals(200, header.status(), header.body());
        responder.awaitRequest("crawlid", "by-header");
        assertEquals(200, writer.postJson("/feed", STOP.formatted("w-stop")).status());
    }

    /** Which one would count would hang on the order of the headers, which a proxy may change. */
    @ParameterizedTest
    @CsvSource(delimiterString = "|", value = {"X-Api-Key: w1|Authorization: Bearer r1", "Authorization: Bearer w1|X-Api-Key: r1",
        "X-Api-Key: r1|X-Api-Key: w1", "Authorization: Bearer w1|Authorization: Bearer w1"})
    void aKeyPresentedTwiceIsRefusedAsNotHttp(String first, String second) throws IOException {
        String reply = exchange("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n" + first + "\r\n" + second + "\r\nConnection: close\r\n\r\n");
        assertTrue(reply.startsWith("HTTP/1.1 400 Bad Request\r\n"), reply);
        assertTrue(reply.contains("The request presents more than one API key"), reply);
    }

    @Test
    void aReadKeyAsksButChangesNothing() {
        double forbidden = gateway.counter("rest.requests.refused", "reason", "forbidden");
        double sent = gateway.counter("rest.feed", "outcome", "sent");
        GatewayClient.Reply stop = reader.postJson("/feed", STOP.formatted("r-stop"));
        assertEquals(403, stop.status(), stop.body());
        assertEquals("This API key may only read.", stop.json().get("error").get("message").asText());
        assertEquals(403, reader.postJson("/feed", CRAWL.formatted("r-crawl")).status());
        assertEquals(forbidden + 2, gateway.counter("rest.requests.refused", "reason", "forbidden"));
        GatewayClient.Reply typo = reader.postJson("/feed", INFO.formatted("r-typo").replace("}", ",}"));
        assertEquals(400, typo.status(), "a body that is not JSON is told as such: " + typo.body());
        assertEquals(sent, gateway.counter("rest.feed", "outcome", "sent"), "nothing refused reached Kafka");

        GatewayClient.Reply info = reader.postJson("/feed", INFO.formatted("r-info"));
        assertEquals(200, info.status(), info.body());
        responder.awaitRequest("uuid", "r-info");
        assertEquals(404, reader.postJson("/poll", "{\"poll_id\": \"never-fed\"}").status(), "polling is reading");
        assertEquals(200, reader.get("/").status());
        assertEquals(200, reader.get("/metrics").status());
    }

    @Test
    void accessSaysWhatTheKeyAllows() {
        JsonNode write = writer.get("/access").json();
        assertEquals("SUCCESS", write.get("status").asText());
        assertEquals("write", write.get("data").get("access").asText());
        assertEquals(false, write.get("data").get("anonymous").asBoolean());
        assertEquals("read", reader.get("/access").json().get("data").get("access").asText());
    }

    @Test
    void healthTellsEveryoneTheStatesAndOnlyCallersWithAKeyTheAddresses() {
        JsonNode open = anonymous.get("/health").json().get("checks");
        JsonNode keyed = reader.get("/health").json().get("checks");
        assertEquals(keyed.get("rest.redis").get("status"), open.get("rest.redis").get("status"));
        assertEquals("", open.get("rest.redis").get("detail").asText());
        assertTrue(keyed.get("rest.redis").get("detail").asText().startsWith("redis://127.0.0.1:"), keyed.toString());
        assertEquals("", anonymous.get("/health/ready").json().get("checks").get("rest.kafka").get("detail").asText());
    }

    @Test
    void healthAndTheWebUiAreOpen() {
        assertNotEquals(401, anonymous.get("/health").status());
        assertEquals(404, anonymous.get("/health/anything").status(), "the whole /health tree is open, known or not");
        assertEquals(200, anonymous.get("/ui/").status());
        assertEquals(200, anonymous.get("/ui/app.js").status());
        assertEquals(301, anonymous.get("/ui").status());
    }

    /** Sends {@code request} on a connection of its own and reads what comes back until the gateway closes it. */
    private String exchange(String request) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(anonymous.base().getHost(), anonymous.base().getPort());
        socket.setSoTimeout(30_000);
        return socket;
    }
}
