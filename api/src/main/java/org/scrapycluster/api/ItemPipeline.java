package org.scrapycluster.api;

import java.util.concurrent.CompletableFuture;

/**
 * One stage every result item passes through, in the ascending order {@code ITEM_PIPELINES} gives
 * (the shipped ones are {@code logging} and {@code kafka}). A request's lease is acknowledged only when
 * every stage's future has completed normally; a stage that cannot take the item now (the store it writes
 * to is down) completes its future exceptionally, and the request returns to its queue when its lease
 * expires, to be crawled again; until an item gets through every stage again, the node fetches one request
 * at a time. A stage that has no use for an item completes normally, and the stages after it take it all the same;
 * one that keeps the item from them (a filter before {@code kafka}) throws a {@link DroppedItem}, or completes its
 * future with one. A {@code process} that throws anything else or returns {@code null} is a bug: the item is dropped,
 * the stages after it are not given it, and its request is given up.
 */
public interface ItemPipeline extends CrawlerExtension {

    /** Takes one item; the future completes when the item is safely handed on. */
    CompletableFuture<Void> process(ResultItem item);

    /** Flushes and releases what this instance holds; called once when the node stops (or the start's check ends). */
    @Override
    default void close() {
    }
}
