package org.scrapycluster.crawler.pipeline;

/** A test stage of the node, named in {@code ITEM_PIPELINES} by its class name, that publishes every item, as {@code kafka} does. */
public final class PublishingPipeline extends AnsweringPipeline {

    public PublishingPipeline() {
        super("publishing", true);
    }
}
