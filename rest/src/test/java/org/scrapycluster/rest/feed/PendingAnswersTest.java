package org.scrapycluster.rest.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class PendingAnswersTest {

    private final PendingAnswers pending = new PendingAnswers();

    @Test
    void anAnswerDeliveredBeforeTheWaitIsTheCallers() throws InterruptedException {
        PendingAnswers.Waiter waiter = pending.register("u1");
        assertTrue(pending.deliver("u1", answer("u1")));
        assertEquals(Optional.of(answer("u1")), pending.await(waiter, Duration.ZERO));
        assertEquals(0, pending.size());
    }

    @Test
    void anAnswerNobodyWaitsForIsNotDelivered() {
        assertFalse(pending.deliver("u2", answer("u2")));
    }

    @Test
    void afterTheWaitEndsALateAnswerIsUnclaimed() throws InterruptedException {
        PendingAnswers.Waiter waiter = pending.register("u3");
        assertEquals(Optional.empty(), pending.await(waiter, Duration.ofMillis(1)));
        assertFalse(pending.deliver("u3", answer("u3")), "to be parked for /poll");
        assertEquals(0, pending.size());
    }

    @Test
    void everyCallerWaitingForOneUuidGetsTheAnswer() throws InterruptedException {
        PendingAnswers.Waiter first = pending.register("u4");
        PendingAnswers.Waiter second = pending.register("u4");
        assertEquals(1, pending.size());
        assertTrue(pending.deliver("u4", answer("u4")));
        assertEquals(Optional.of(answer("u4")), pending.await(first, Duration.ZERO));
        assertEquals(Optional.of(answer("u4")), pending.await(second, Duration.ZERO));
    }

    @Test
    void aForgottenCallerLeavesTheOthersWaiting() {
        PendingAnswers.Waiter gone = pending.register("u5");
        pending.register("u5");
        pending.forget(gone);
        assertTrue(pending.deliver("u5", answer("u5")));
        assertFalse(pending.deliver("u5", answer("u5")), "delivered once");
    }

    private static JsonNode answer(String uuid) {
        return JsonNodeFactory.instance.objectNode().put("uuid", uuid).put("total_pending", 0);
    }
}
