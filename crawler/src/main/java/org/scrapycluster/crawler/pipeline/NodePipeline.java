package org.scrapycluster.crawler.pipeline;

import org.scrapycluster.api.ItemPipeline;

/**
 * A pipeline that needs the node itself — its meters, health checks and clock — as the shipped
 * {@code logging} and {@code kafka} do. The items it is given are {@link CrawlResult}s.
 */
public interface NodePipeline extends ItemPipeline {

    /** Prepares the stage before the first item, after {@link #configure}. */
    void open(PipelineContext context);
}
