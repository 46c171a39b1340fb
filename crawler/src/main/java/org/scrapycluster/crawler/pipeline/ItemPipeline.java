package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

/**
 * One stage that every result item passes through, in the order of {@code ITEM_PIPELINES} (the shipped
 * ones are {@code logging} and {@code kafka}). A request's lease is acknowledged only when every stage's
 * future has completed normally; a stage that cannot take the item now (Kafka unavailable) completes its
 * future exceptionally, and the request returns to its queue when its lease expires.
 *
 * <p>To add a pipeline, implement this interface with a public no-argument constructor, list the class in
 * {@code META-INF/services/org.scrapycluster.crawler.pipeline.ItemPipeline}, and name it in
 * {@code ITEM_PIPELINES}. Implementations must be thread-safe. See docs/extending.md.
 */
public interface ItemPipeline extends AutoCloseable {

    /** The name {@code ITEM_PIPELINES} lists it by. */
    String name();

    /** Prepares the stage before the first item (connections, settings). */
    void open(PipelineContext context);

    /** Takes one item; completes when the item is safely handed on. */
    CompletableFuture<Void> process(CrawlResult item);

    /** Flushes and releases what {@link #open} took. */
    @Override
    default void close() {
    }
}
