package org.scrapycluster.crawler.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.settings.SettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipelines {@code ITEM_PIPELINES} names, in its ascending order: each item goes through them one
 * after the other.
 */
public final class Pipelines implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);

    private final List<ItemPipeline> stages;

    private Pipelines(List<ItemPipeline> stages) {
        this.stages = stages;
    }

    /**
     * Loads and opens the pipelines {@code ITEM_PIPELINES} of the context's settings names.
     *
     * @throws SettingsException when a name has no pipeline
     */
    public static Pipelines open(PipelineContext context) {
        List<ItemPipeline> loaded = ExtensionLoader.of(ItemPipeline.class, "item pipelines", context.settings()).ordered("ITEM_PIPELINES");
        List<ItemPipeline> opened = new ArrayList<>();
        try {
            for (ItemPipeline stage : loaded) {
                if (stage instanceof NodePipeline nodePipeline) {
                    nodePipeline.open(context);
                }
                opened.add(stage);
            }
        } catch (RuntimeException e) {
            opened.forEach(ItemPipeline::close);
            throw e;
        }
        return new Pipelines(List.copyOf(opened));
    }

    /**
     * Passes {@code item} through every stage in order, called on a worker; completes when the last one has taken it.
     * A stage after one that has taken the item at once is called on the same thread; one after a stage that answers
     * later is called on {@code workers}, not on the thread that completes that answer (a Kafka client's network
     * thread, after the {@code kafka} stage), which a stage that blocks would hold up for every item of the node.
     */
    public CompletableFuture<Void> process(CrawlResult item, Executor workers) {
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        for (ItemPipeline stage : stages) {
            done = done.isDone() ? done.thenCompose(previous -> stage.process(item))
                    : done.thenComposeAsync(previous -> stage.process(item), workers);
        }
        return done;
    }

    /** {@link #close(Duration) Closes}, the stages of the node sharing {@link NodePipeline#CLOSE_WAIT}. */
    @Override
    public void close() {
        close(NodePipeline.CLOSE_WAIT);
    }

    /**
     * Closes every stage, last first, the stages sharing {@code wait}, each given what is left of it. A stage of the node
     * ({@link NodePipeline}) bounds its own wait; a user's stage, whose {@code close} has no limit, is closed on a
     * thread of its own, and one that has not returned when its time is up is left to finish alone while the node
     * stops (docs/extending.md). A stage whose {@code close} throws (an exception, or an error of its own code:
     * {@link ExtensionFailures}) is logged, and the stages before it are closed all the same: the {@code kafka} stage
     * still flushes the pages going out.
     */
    public void close(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        for (int i = stages.size() - 1; i >= 0; i--) {
            ItemPipeline stage = stages.get(i);
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            try {
                if (stage instanceof NodePipeline nodePipeline) {
                    nodePipeline.close(left);
                } else {
                    closeWithin(stage, left);
                }
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                LOG.atError().addKeyValue("pipeline", stage.name()).setCause(e).log("An item pipeline failed to close; closing the others");
            }
        }
    }

    /** Closes a user's {@code stage} on a thread of its own, waiting for it at most {@code wait}. */
    private static void closeWithin(ItemPipeline stage, Duration wait) throws Throwable {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("pipeline-close-" + stage.name()).start(() -> {
            try {
                stage.close();
                closed.complete(null);
            } catch (Throwable e) {
                closed.completeExceptionally(e);
            }
        });
        try {
            closed.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            LOG.atError().addKeyValue("pipeline", stage.name()).addKeyValue("waited", wait)
                    .log("An item pipeline did not close in its time; the node stops without waiting for it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
