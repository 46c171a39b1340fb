package org.scrapycluster.crawler.pipeline;

/**
 * A test stage of the node, named in {@code ITEM_PIPELINES} by its class name, that drops every item for good, as the
 * {@code kafka} stage drops a page too large for Kafka.
 */
public final class DroppingPipeline extends AnsweringPipeline {

    public DroppingPipeline() {
        super("dropping", false);
    }
}
