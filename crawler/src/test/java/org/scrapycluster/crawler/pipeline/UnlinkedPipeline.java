package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** A user's test stage, named in {@code ITEM_PIPELINES} by its class name, whose future fails as async code calling into a library its jar lacks. */
public final class UnlinkedPipeline implements ItemPipeline {

    @Override
    public String name() {
        return "unlinked";
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        return CompletableFuture.supplyAsync(() -> {
            throw new NoClassDefFoundError("org/example/missing/Library");
        });
    }
}
