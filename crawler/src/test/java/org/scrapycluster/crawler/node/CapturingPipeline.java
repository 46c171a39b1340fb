package org.scrapycluster.crawler.node;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** A test pipeline ({@code captured}) that keeps every item it is given, for tests to read. */
public final class CapturingPipeline implements ItemPipeline {

    static final Queue<ResultItem> ITEMS = new ConcurrentLinkedQueue<>();

    @Override
    public String name() {
        return "captured";
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        ITEMS.add(item);
        return CompletableFuture.completedFuture(null);
    }
}
