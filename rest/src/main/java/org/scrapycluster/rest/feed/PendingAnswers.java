package org.scrapycluster.rest.feed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The uuids callers of {@code /feed} wait for on this gateway. A caller registers its uuid before
 * its request is sent, so that even the fastest answer finds it; the reader of the outbound topic
 * delivers each answer to every caller waiting for its uuid. Delivering and giving up are atomic
 * per uuid: an answer is either handed to a caller or reported as unclaimed (to be parked), never
 * lost between the two.
 */
public final class PendingAnswers {

    /** One caller waiting for the answer to {@code uuid}. */
    public static final class Waiter {

        private final String uuid;
        private final CompletableFuture<JsonNode> answer = new CompletableFuture<>();

        private Waiter(String uuid) {
            this.uuid = uuid;
        }

        public String uuid() {
            return uuid;
        }
    }

    private final ConcurrentHashMap<String, List<Waiter>> waiting = new ConcurrentHashMap<>();

    /** Registers a caller waiting for {@code uuid}. */
    public Waiter register(String uuid) {
        Waiter waiter = new Waiter(uuid);
        waiting.compute(uuid, (key, waiters) -> {
            List<Waiter> list = waiters == null ? new ArrayList<>(1) : waiters;
            list.add(waiter);
            return list;
        });
        return waiter;
    }

    /**
     * Hands {@code answer} to every caller waiting for {@code uuid}.
     *
     * @return false when nobody here waits for it
     */
    public boolean deliver(String uuid, JsonNode answer) {
        boolean[] delivered = {false};
        waiting.computeIfPresent(uuid, (key, waiters) -> {
            waiters.forEach(waiter -> waiter.answer.complete(answer));
            delivered[0] = true;
            return null;
        });
        return delivered[0];
    }

    /**
     * Waits up to {@code timeout} for the answer of {@code waiter}, then stops waiting: an answer
     * arriving later is not {@link #deliver delivered} to it.
     *
     * @return the answer, or empty when none came in time
     */
    public Optional<JsonNode> await(Waiter waiter, Duration timeout) throws InterruptedException {
        try {
            return Optional.of(waiter.answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            forget(waiter);
            // An answer delivered while the wait ended is the caller's all the same.
            return Optional.ofNullable(waiter.answer.getNow(null));
        } catch (ExecutionException e) {
            throw new IllegalStateException("answers are never delivered exceptionally", e);
        } finally {
            if (!waiter.answer.isDone()) {
                forget(waiter);
            }
        }
    }

    /** Stops waiting for the answer of {@code waiter}, e.g. when its request could not be sent. */
    public void forget(Waiter waiter) {
        waiting.computeIfPresent(waiter.uuid, (key, waiters) -> {
            waiters.remove(waiter);
            return waiters.isEmpty() ? null : waiters;
        });
    }

    /** How many uuids callers wait for now. */
    public int size() {
        return waiting.size();
    }
}
