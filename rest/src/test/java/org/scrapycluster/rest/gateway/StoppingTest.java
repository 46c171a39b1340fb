package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
}
