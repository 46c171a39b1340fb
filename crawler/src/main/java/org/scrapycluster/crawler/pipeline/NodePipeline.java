package org.scrapycluster.crawler.pipeline;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.api.ItemPipeline;
import org.scrapycluster.common.settings.Settings;

/**
 * A pipeline that needs the node itself — its meters, health checks and clock — as the shipped
 * {@code logging} and {@code kafka} do. The items it is given are {@link CrawlResult}s.
 */
public interface NodePipeline extends ItemPipeline {

    /** The longest a node pipeline's {@link #close()} waits to flush. */
    Duration CLOSE_WAIT = Duration.ofSeconds(10);

    /**
     * Refuses the settings {@link #open} could not work with, as it would, without opening anything
     * ({@code --check}); a stage that reads no settings of its own need not override it.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    default void check(Settings settings) {
    }

    /** Prepares the stage before the first item, after {@link #configure}. */
    void open(PipelineContext context);

    /**
     * Takes one item as {@link #process} does, and says whether it went on: false when the stage dropped it for good
     * (the {@code kafka} stage when a page is too large for Kafka even without its body and links, or Kafka refuses it),
     * so that the page is not counted as published (docs/redis-monitor.md, {@code total_pages}). A stage that drops
     * nothing need not override it.
     */
    default CompletableFuture<Boolean> deliver(CrawlResult item) {
        return process(item).thenApply(done -> true);
    }

    /**
     * Whether an item this stage {@linkplain #deliver delivered} is published (the {@code kafka} stage): an item a
     * user's stage drops after such a stage took it still counts as published; one dropped after a stage that only
     * looks at items ({@code logging}) does not.
     */
    default boolean publishes() {
        return false;
    }

    /** Flushes and releases what the stage holds, waiting at most {@code wait}; called once when the node stops. */
    default void close(Duration wait) {
        close();
    }
}
