package org.scrapycluster.crawler.node;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** Test pipelines with a bug, or that meet an error, named in {@code ITEM_PIPELINES} by their class names. */
final class FailingPipelines {

    private FailingPipelines() {
    }

    /** A stage whose {@code process} throws on every item. */
    public static final class Throwing extends Failing {
        public Throwing() {
            super("throwing", url -> {
                throw new IllegalStateException("a bug on " + url);
            });
        }
    }

    /** A stage whose {@code process} returns no future. */
    public static final class Futureless extends Failing {
        public Futureless() {
            super("futureless", url -> null);
        }
    }

    /** A stage whose {@code process} finds the heap exhausted. */
    public static final class HeapExhausted extends Failing {
        public HeapExhausted() {
            super("heap-exhausted", url -> {
                throw new OutOfMemoryError("Java heap space (thrown by a test pipeline)");
            });
        }
    }

    /** A stage that answers each item with what {@code process} makes of its URL. */
    abstract static class Failing implements ItemPipeline {

        private final String name;
        private final Function<String, CompletableFuture<Void>> process;

        Failing(String name, Function<String, CompletableFuture<Void>> process) {
            this.name = name;
            this.process = process;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return process.apply(item.url());
        }
    }
}
