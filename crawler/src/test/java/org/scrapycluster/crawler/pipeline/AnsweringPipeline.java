package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ResultItem;

/** A test stage of the node that answers every item alike: published, or dropped for good. */
abstract class AnsweringPipeline implements NodePipeline {

    private final String name;
    private final boolean published;

    AnsweringPipeline(String name, boolean published) {
        this.name = name;
        this.published = published;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void open(PipelineContext context) {
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        return deliver((CrawlResult) item).thenApply(taken -> null);
    }

    @Override
    public CompletableFuture<Boolean> deliver(CrawlResult item) {
        return CompletableFuture.completedFuture(published);
    }

    @Override
    public boolean publishes() {
        return true;
    }
}
