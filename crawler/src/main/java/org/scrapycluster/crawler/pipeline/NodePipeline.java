package org.scrapycluster.crawler.pipeline;

import java.time.Duration;

import org.scrapycluster.api.ItemPipeline;

/**
 * A pipeline that needs the node itself — its meters, health checks and clock — as the shipped
 * {@code logging} and {@code kafka} do. The items it is given are {@link CrawlResult}s.
 */
public interface NodePipeline extends ItemPipeline {

    /** The longest a node pipeline's {@link #close()} waits to flush. */
    Duration CLOSE_WAIT = Duration.ofSeconds(10);

    /** Prepares the stage before the first item, after {@link #configure}. */
    void open(PipelineContext context);

    /** Flushes and releases what the stage holds, waiting at most {@code wait}; called once when the node stops. */
    default void close(Duration wait) {
        close();
    }
}
