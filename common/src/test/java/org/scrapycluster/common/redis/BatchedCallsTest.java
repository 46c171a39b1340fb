package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

class BatchedCallsTest {

    /** The batches sent, each answered by hand through its future. */
    private final List<List<Integer>> sent = new ArrayList<>();
    private final List<CompletableFuture<List<String>>> outstanding = new ArrayList<>();
    private final BatchedCalls<Integer, String> calls = new BatchedCalls<>(batch -> {
        sent.add(batch);
        CompletableFuture<List<String>> answer = new CompletableFuture<>();
        outstanding.add(answer);
        return answer;
    }, 3);

    private void answer(int batch) {
        outstanding.get(batch).complete(sent.get(batch).stream().map(n -> "answer " + n).toList());
    }

    @Test
    void aLoneCallGoesAtOnce() {
        CompletableFuture<String> first = calls.call(1);
        assertEquals(List.of(List.of(1)), sent);
        answer(0);
        assertEquals("answer 1", first.join());
    }

    @Test
    void callsMadeWhileOneIsOutGoTogetherNextInBatchesOfAtMostTheMost() {
        calls.call(1);
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int n = 2; n <= 6; n++) {
            waiting.add(calls.call(n));
        }
        assertEquals(1, sent.size(), "nothing more goes while a batch is out");
        answer(0);
        assertEquals(List.of(2, 3, 4), sent.get(1));
        assertFalse(waiting.get(0).isDone());
        answer(1);
        assertEquals(List.of(5, 6), sent.get(2));
        assertEquals("answer 4", waiting.get(2).join());
        answer(2);
        assertEquals("answer 6", waiting.get(4).join());
        calls.call(7);
        assertEquals(List.of(7), sent.get(3), "with nothing out, a call goes at once again");
    }

    @Test
    void aFailedBatchFailsItsCallsAndTheNextBatchStillGoes() {
        CompletableFuture<String> first = calls.call(1);
        CompletableFuture<String> second = calls.call(2);
        outstanding.get(0).completeExceptionally(new IllegalStateException("Redis went away"));
        CompletionException failed = assertThrows(CompletionException.class, first::join);
        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertEquals(List.of(2), sent.get(1));
        answer(1);
        assertEquals("answer 2", second.join());
    }

    @Test
    void aBatchAnsweredWithTheWrongNumberOfAnswersFailsInsteadOfHanging() {
        CompletableFuture<String> first = calls.call(1);
        CompletableFuture<String> second = calls.call(2);
        outstanding.get(0).complete(List.of());
        assertThrows(CompletionException.class, first::join);
        outstanding.get(1).complete(List.of());
        assertThrows(CompletionException.class, second::join);
        assertEquals("answer 3", awaitAlone(3));
    }

    @Test
    void aBatchCallThatThrowsFailsItsCalls() {
        BatchedCalls<Integer, String> broken = new BatchedCalls<>(batch -> {
            throw new IllegalArgumentException("cannot send " + batch);
        }, 3);
        CompletionException failed = assertThrows(CompletionException.class, () -> broken.call(1).join());
        assertEquals("cannot send [1]", failed.getCause().getMessage());
        failed = assertThrows(CompletionException.class, () -> broken.call(2).join());
        assertEquals("cannot send [2]", failed.getCause().getMessage(), "the next call is sent, not stuck");
    }

    private String awaitAlone(int n) {
        CompletableFuture<String> call = calls.call(n);
        answer(sent.size() - 1);
        return call.join();
    }
}
