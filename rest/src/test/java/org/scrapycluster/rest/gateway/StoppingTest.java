package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.GatewayClient;

/** A gateway stopped while it owes answers, through real HTTP and Kafka. */
@ExtendWith(SharedStack.class)
class StoppingTest {

    @Test
    void aGatewayStoppedWhileAFeedWaitsForItsAnswerStillAnswersIt(EmbeddedStack stack) throws Exception {
        try (AnsweredGateway answered = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "2"))) {
            CompletableFuture<GatewayClient.Reply> reply = CompletableFuture.supplyAsync(() -> answered.gateway().client()
                    .postJson("/feed", "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"stopping-1\", \"spiderid\": \"link\"}"));
            // in Kafka, so the cluster will answer it: the caller must learn where to poll for that answer
            answered.responder().awaitRequest("uuid", "stopping-1");

            answered.gateway().close();

            GatewayClient.Reply answer = reply.get(30, TimeUnit.SECONDS);
            assertEquals(200, answer.status(), answer.body());
            assertEquals("stopping-1", answer.json().get("data").get("poll_id").asText());
            assertEquals("close", answer.header("Connection"), "a stopping gateway keeps no connection alive");
        }
    }

    /**
     * Pipelined feeds owed an answer when the gateway stops are each answered on their connection, which the last
     * answer closes: closed by the first, the second's answer was lost though its request went to Kafka.
     */
    @Test
    void aStoppingGatewayAnswersEveryPipelinedFeedBeforeItClosesTheirConnection(EmbeddedStack stack) throws Exception {
        try (AnsweredGateway answered = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "2"));
             Socket socket = connect(answered.gateway().client().base())) {
            OutputStream out = socket.getOutputStream();
            out.write((waitingFeed("stopping-2") + waitingFeed("stopping-3")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // the second is run once the first is answered: the gateway stops while the first waits, the second owed
            answered.responder().awaitRequest("uuid", "stopping-2");

            answered.gateway().close();

            String replies = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            List<String> heads = Pattern.compile("HTTP/1\\.1 [^{]*").matcher(replies).results().map(MatchResult::group).toList();
            assertEquals(2, heads.size(), replies);
            assertEquals(List.of(true, false), heads.stream().map(head -> head.contains("connection: keep-alive")).toList(), replies);
            assertEquals(List.of(false, true), heads.stream().map(head -> head.contains("connection: close")).toList(), replies);
            assertEquals(List.of(true, true), List.of(replies.contains("stopping-2"), replies.contains("stopping-3")), replies);
        }
    }

    /** A feed of an info request nobody answers: the gateway answers it with a poll_id after WAIT_FOR_RESPONSE_TIME. */
    private static String waitingFeed(String uuid) {
        String request = "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"" + uuid + "\", \"spiderid\": \"link\"}";
        return "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + request.length() + "\r\n\r\n" + request;
    }

    private static Socket connect(URI base) throws Exception {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(60_000);
        return socket;
    }
}
