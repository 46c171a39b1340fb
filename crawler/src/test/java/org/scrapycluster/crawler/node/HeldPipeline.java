package org.scrapycluster.crawler.node;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/**
 * A test pipeline ({@code held}) that takes items as a store flushing only when it closes would: an item's future
 * completes when the pipeline is closed, right after {@link #whenFlushing} has run.
 */
public final class HeldPipeline implements ItemPipeline {

    private static final Queue<CompletableFuture<Void>> HELD = new ConcurrentLinkedQueue<>();
    private static volatile Runnable flushing = () -> { };

    /** Runs {@code check} when a held pipeline closes, before it lets its items out. */
    static void whenFlushing(Runnable check) {
        flushing = check;
    }

    /** The items held now. */
    static int held() {
        return HELD.size();
    }

    @Override
    public String name() {
        return "held";
    }

    @Override
    public CompletableFuture<Void> process(ResultItem item) {
        CompletableFuture<Void> out = new CompletableFuture<>();
        HELD.add(out);
        return out;
    }

    @Override
    public void close() {
        flushing.run();
        for (CompletableFuture<Void> out = HELD.poll(); out != null; out = HELD.poll()) {
            out.complete(null);
        }
    }
}
