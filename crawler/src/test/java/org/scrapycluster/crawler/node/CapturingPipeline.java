package org.scrapycluster.crawler.node;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/**
 * A test pipeline ({@code captured}) that keeps every item it is given, for tests to read, and refuses, as a store
 * that is down would, the items of the crawls in {@link #REFUSED_CRAWLS}.
 */
public final class CapturingPipeline implements ItemPipeline {

    static final Queue<ResultItem> ITEMS = new ConcurrentLinkedQueue<>();
    static final Set<String> REFUSED_CRAWLS = ConcurrentHashMap.newKeySet();

    @Override
    public String name() {
        return "captured";
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        if (REFUSED_CRAWLS.contains(item.crawlid())) {
            return CompletableFuture.failedFuture(new IllegalStateException("the store is down"));
        }
        ITEMS.add(item);
        return CompletableFuture.completedFuture(null);
    }
}
