package org.scrapycluster.crawler.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

import org.scrapycluster.api.DroppedItem;
import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.common.concurrent.Completions;
import org.scrapycluster.common.extension.ExtensionCallFailure;
import org.scrapycluster.common.extension.ExtensionCloser;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipelines {@code ITEM_PIPELINES} names, in its ascending order: each item goes through them one
 * after the other.
 */
public final class Pipelines implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);
    private static final ExtensionCloser<ItemPipeline> CLOSER = new ExtensionCloser<>(LOG, "item pipeline", ItemPipeline::name);

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
        List<ItemPipeline> loaded = load(context.settings());
        List<ItemPipeline> opened = new ArrayList<>();
        try {
            for (ItemPipeline stage : loaded) {
                if (stage instanceof NodePipeline nodePipeline) {
                    nodePipeline.open(context);
                }
                opened.add(stage);
            }
        } catch (RuntimeException e) {
            closeAll(opened, NodePipeline.CLOSE_WAIT); // a close that fails is logged: the error is the one the start met
            throw e;
        }
        return new Pipelines(List.copyOf(opened));
    }

    /**
     * Refuses an {@code ITEM_PIPELINES} that {@link #open} would: a name with no pipeline, one that cannot be made, a
     * setting a node's own stage could not open with ({@link NodePipeline#check}). Makes them, opens none, and closes
     * those an extension made (the node's own have nothing to close before they open), as a stop closes them: one whose
     * {@code close} fails (a pipeline that connects on first use, closing a client it never made) is logged, and one that
     * does not return in time is left to finish alone.
     *
     * @throws SettingsException naming the setting
     */
    public static void check(Settings settings) {
        List<ItemPipeline> stages = load(settings);
        try {
            for (ItemPipeline stage : stages) {
                if (stage instanceof NodePipeline nodePipeline) {
                    nodePipeline.check(settings);
                }
            }
        } finally {
            closeAll(stages.stream().filter(stage -> !(stage instanceof NodePipeline)).toList(), NodePipeline.CLOSE_WAIT);
        }
    }

    private static List<ItemPipeline> load(Settings settings) {
        return ExtensionLoader.of(ItemPipeline.class, "item pipelines", settings).ordered("ITEM_PIPELINES");
    }

    /**
     * Passes {@code item} through every stage in order, called on a worker; completes when the last one has taken it,
     * with whether the item was published: false when a stage of the node dropped it for good
     * ({@link NodePipeline#deliver}), the stages after it taking it all the same, as they take an item a stage had no
     * use for; false too when a user's stage dropped it ({@link DroppedItem}) before a stage of the node took it, the
     * stages after it not given it (a drop after the {@code kafka} stage keeps it from the later stages only). A stage
     * after one that has taken the item at once is called on the same thread; one after a stage that answers later is
     * called on {@code workers}, not on the thread that completes that answer (a Kafka client's network thread, after
     * the {@code kafka} stage), which a stage that blocks would hold up for every item of the node.
     */
    public CompletableFuture<Boolean> process(CrawlResult item, Executor workers) {
        CompletableFuture<Passage> passage = CompletableFuture.completedFuture(Passage.START);
        for (ItemPipeline stage : stages) {
            Function<Passage, CompletableFuture<Passage>> next = before -> before.dropped()
                    ? CompletableFuture.completedFuture(before) : take(stage, item).thenApply(before::after);
            passage = Completions.thenOn(passage, next, workers);
        }
        return passage.thenApply(Passage::published);
    }

    /** What a stage did with an item. */
    private enum Step {
        /** A stage of the node published it. */
        PUBLISHED,
        /** A user's stage, or a stage of the node that does not publish, took it, or had no use for it. */
        PASSED,
        /** A stage of the node dropped it for good. */
        REFUSED,
        /** A user's stage kept it from the stages after it. */
        DROPPED
    }

    /**
     * Where an item stands after the stages so far.
     *
     * @param taken   a stage of the node published it
     * @param refused a stage of the node dropped it for good
     * @param dropped a user's stage kept it from the stages after it
     */
    private record Passage(boolean taken, boolean refused, boolean dropped) {

        static final Passage START = new Passage(false, false, false);

        Passage after(Step step) {
            return new Passage(taken || step == Step.PUBLISHED, refused || step == Step.REFUSED, step == Step.DROPPED);
        }

        /** Whether the item counts as published: no stage of the node refused it, and no drop came before one took it. */
        boolean published() {
            return !refused && (!dropped || taken);
        }
    }

    /**
     * {@code stage}'s taking {@code item}: what it did with it. A user's stage that throws or returns no
     * future fails it with a {@link PipelineFailure} naming the stage, a bug, for which the item is dropped; a future of
     * its that fails is its "not now", and fails it as a {@link PipelineNotNow} naming the stage and the page (so that the
     * lines telling of it name them), but for an error of its code's own linking (a class its jar lacks), which would
     * otherwise end the node as one of the node's own: that fails it as a {@link PipelineFailure} that is no bug, a "not
     * now" counted as an extension's failure (docs/extending.md, "When an extension fails"), and for the JVM failing,
     * which fails it as it is. A {@link DroppedItem}, thrown or its future's, is none of these.
     */
    private static CompletableFuture<Step> take(ItemPipeline stage, CrawlResult item) {
        if (stage instanceof NodePipeline nodePipeline) {
            return nodePipeline.deliver(item)
                    .thenApply(went -> !went ? Step.REFUSED : nodePipeline.publishes() ? Step.PUBLISHED : Step.PASSED);
        }
        CompletableFuture<Void> taken;
        try {
            taken = OwnClassLoader.call(stage, () -> stage.process(item));
        } catch (DroppedItem dropped) {
            return dropped(stage, item, dropped);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            return CompletableFuture.failedFuture(new PipelineFailure(stage.name(), item.url(), "failed in process: " + e, e, true));
        }
        if (taken == null) {
            return CompletableFuture.failedFuture(new PipelineFailure(stage.name(), item.url(), "returned no future from process", null, true));
        }
        return taken.thenApply(done -> Step.PASSED).exceptionallyCompose(failure -> {
            Throwable cause = Completions.cause(failure);
            if (cause instanceof DroppedItem dropped) {
                return dropped(stage, item, dropped);
            }
            if (cause instanceof LinkageError) {
                return CompletableFuture.failedFuture(
                        new PipelineFailure(stage.name(), item.url(), "failed its future: " + cause, cause, false));
            }
            return CompletableFuture.failedFuture(
                    FatalExit.jvmFailed(cause) ? failure : new PipelineNotNow(stage.name(), item.url(), cause));
        });
    }

    private static CompletableFuture<Step> dropped(ItemPipeline stage, CrawlResult item, DroppedItem dropped) {
        LOG.atDebug().addKeyValue("url", item.url()).addKeyValue("reason", dropped.getMessage())
                .log("Item dropped by the item pipeline " + stage.name());
        return CompletableFuture.completedFuture(Step.DROPPED);
    }

    /**
     * A user's stage threw, or returned no future: its bug, for which the item is dropped and its request given up; or its
     * future failed with an error of linking, a "not now" ({@code bug} false).
     */
    static final class PipelineFailure extends ExtensionCallFailure {

        private static final long serialVersionUID = 1L;

        PipelineFailure(String stage, String url, String what, Throwable cause, boolean bug) {
            super("pipeline", "item pipeline " + stage + " in process", url, "the item pipeline " + stage + " " + what, cause, bug);
        }
    }

    /** A user's stage failed its future: its "not now" (the store it writes to is down), told with the stage and the page. */
    static final class PipelineNotNow extends RuntimeException {

        private static final long serialVersionUID = 1L;

        PipelineNotNow(String stage, String url, Throwable cause) {
            super("the item pipeline " + stage + " failed its future for " + url + ": " + cause, cause);
        }
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
     * stops (docs/extending.md). A stage whose {@code close} throws is logged, and the stages before it are closed all the
     * same ({@link ExtensionCloser}): the {@code kafka} stage still flushes the pages going out.
     */
    public void close(Duration wait) {
        closeAll(stages, wait);
    }

    private static void closeAll(List<ItemPipeline> stages, Duration wait) {
        CLOSER.closeAll(stages, wait, (stage, left) -> {
            if (stage instanceof NodePipeline nodePipeline) {
                nodePipeline.close(left);
            } else {
                CLOSER.closeWithin(stage, left);
            }
        });
    }
}
