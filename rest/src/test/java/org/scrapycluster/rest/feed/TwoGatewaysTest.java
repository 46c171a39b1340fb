package org.scrapycluster.rest.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.OutboundResponder;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * Two gateways behind one load balancer: each reads every answer (a consumer group of its own), so
 * a client may feed through one and poll through the other (docs/compatibility.md §6.4 step 5).
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoGatewaysTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AnsweredGateway answered;
    private RunningGateway first;
    private RunningGateway second;
    private OutboundResponder responder;

    @BeforeAll
    void start(EmbeddedStack stack) {
        answered = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "1"));
        first = answered.gateway();
        responder = answered.responder();
        second = RunningGateway.start(answered.settings().build()).awaitGreen();
    }

    @AfterAll
    void stop() {
        second.close();
        answered.close();
    }

    @Test
    void eachGatewayIsANodeOfItsOwn() {
        assertNotEquals(first.index().get("my_id"), second.index().get("my_id"));
    }

    @Test
    void anAnswerTheFirstWaitsForIsParkedByTheSecond() throws Exception {
        String answer = "{\"uuid\":\"two-1\",\"appid\":\"testapp\",\"stats\":\"queue\",\"queues\":{\"total_backlog\":0}}";
        responder.answerWith("two-1", answer);
        GatewayClient.Reply fed = first.client().postJson("/feed", "{\"appid\": \"testapp\", \"uuid\": \"two-1\", \"stats\": \"queue\"}");
        assertEquals(JSON.readTree(answer), fed.json().get("data"));
        JsonNode polled = Awaitility.await().atMost(Duration.ofMinutes(1))
                .until(() -> second.client().postJson("/poll", "{\"poll_id\": \"two-1\"}"), reply -> reply.status() == 200).json();
        assertEquals(JSON.readTree(answer), polled.get("data"));
    }

    @Test
    void fedThroughOneAndPolledThroughTheOther() throws Exception {
        GatewayClient.Reply fed = second.client().postJson("/feed",
                "{\"action\": \"stop\", \"appid\": \"testapp\", \"uuid\": \"two-2\", \"crawlid\": \"c2\", \"spiderid\": \"link\"}");
        assertEquals("two-2", fed.json().get("data").get("poll_id").asText());
        String answer = "{\"action\":\"stop\",\"uuid\":\"two-2\",\"appid\":\"testapp\",\"crawlid\":\"c2\",\"spiderid\":\"link\",\"total_purged\":0}";
        responder.publish(answer);
        JsonNode polled = Awaitility.await().atMost(Duration.ofMinutes(1))
                .until(() -> first.client().postJson("/poll", "{\"poll_id\": \"two-2\"}"), reply -> reply.status() == 200).json();
        assertEquals(JSON.readTree(answer), polled.get("data"));
    }
}
