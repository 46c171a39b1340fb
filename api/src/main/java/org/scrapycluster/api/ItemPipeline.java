package org.scrapycluster.api;

import java.util.concurrent.CompletableFuture;

/**
 * One stage every result item passes through, in the ascending order {@code ITEM_PIPELINES} gives
 * (the shipped ones are {@code logging} and {@code kafka}). A request's lease is acknowledged only when
 * every stage's future has completed normally; a stage that cannot take the item now (the store it writes
 * to is down) completes its future exceptionally, and the request returns to its queue when its lease
 * expires, to be crawled again; until an item gets through every stage again, the node fetches one request
 * at a time. An item a stage will never take is dropped by completing normally. A {@code process} that throws
 * or returns {@code null} is a bug: the item is dropped, the stages after it are not given it, and its request
 * is given up.
 */
public interface ItemPipeline extends Extension, AutoCloseable {

    /** Takes one item; the future completes when the item is safely handed on. */
    CompletableFuture<Void> process(ResultItem item);

    /** Flushes and releases what the stage holds; called once when the node stops. */
    @Override
    default void close() {
    }
}
