package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ResultItem;

/** A test stage of the node, named in {@code ITEM_PIPELINES} by its class name, that drops every item for good, as the {@code kafka} stage drops a page too large for Kafka. */
public final class DroppingPipeline implements NodePipeline {

    @Override
    public String name() {
        return "dropping";
    }

    @Override
    public void open(PipelineContext context) {
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        return deliver((CrawlResult) item).thenApply(published -> null);
    }

    @Override
    public CompletableFuture<Boolean> deliver(CrawlResult item) {
        return CompletableFuture.completedFuture(false);
    }
}
