package org.scrapycluster.crawler.node;

import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** Test pipelines with a bug, named in {@code ITEM_PIPELINES} by their class names. */
final class FailingPipelines {

    private FailingPipelines() {
    }

    /** A stage whose {@code process} throws on every item. */
    public static final class Throwing implements ItemPipeline {
        @Override
        public String name() {
            return "throwing";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            throw new IllegalStateException("a bug on " + item.url());
        }
    }

    /** A stage whose {@code process} returns no future. */
    public static final class Futureless implements ItemPipeline {
        @Override
        public String name() {
            return "futureless";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return null;
        }
    }
}
