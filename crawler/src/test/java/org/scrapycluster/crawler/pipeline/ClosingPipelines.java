package org.scrapycluster.crawler.pipeline;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.api.ResultItem;

/** Test pipelines, named in {@code ITEM_PIPELINES} by their class names, that say when they are closed. */
final class ClosingPipelines {

    /** The names of the stages closed, in order. */
    static final Queue<String> CLOSED = new ConcurrentLinkedQueue<>();

    private ClosingPipelines() {
    }

    /** A stage that closes cleanly. */
    public static final class Flushing implements ItemPipeline {
        @Override
        public String name() {
            return "flushing";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            CLOSED.add(name());
        }
    }

    /** Released to let {@link Hanging} return from its {@code close}. */
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    /** A user's stage whose {@code close} does not return (until {@link #RELEASE}). */
    public static final class Hanging implements ItemPipeline {
        @Override
        public String name() {
            return "hanging";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            try {
                RELEASE.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A user's stage with a bug in its {@code close}. */
    public static final class Unclosable implements ItemPipeline {
        @Override
        public String name() {
            return "unclosable";
        }

        @Override
        public CompletableFuture<Void> process(ResultItem item) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            throw new AssertionError("a bug");
        }
    }
}
