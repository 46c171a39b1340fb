package org.scrapycluster.crawler.pipeline;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.DroppedItem;
import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** Test stages, named in {@code ITEM_PIPELINES} by their class names, that keep every item from the stages after them. */
public final class FilteringPipelines {

    private FilteringPipelines() {
    }

    /** Throws its refusal from {@code process}. */
    public static final class Throwing implements ItemPipeline {
        @Override
        public String name() {
            return "throwing-filter";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            throw new DroppedItem("not wanted");
        }
    }

    /** Completes its future with its refusal, as a stage that asks a store first does. */
    public static final class Completing implements ItemPipeline {
        @Override
        public String name() {
            return "completing-filter";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return CompletableFuture.failedFuture(new DroppedItem("not wanted"));
        }
    }
}
