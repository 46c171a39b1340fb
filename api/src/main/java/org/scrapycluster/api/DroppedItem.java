package org.scrapycluster.api;

/**
 * An {@link ItemPipeline} stage's refusal of an item for good, as Scrapy's {@code DropItem}: thrown from
 * {@code process}, or the exception its future completes with. The stages after it are not given the item, which is
 * not published; its request is done and is not crawled again, and the refusal is no failure of the stage's: it is
 * logged at DEBUG with {@code reason}, not counted as an error.
 */
public final class DroppedItem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param reason why the item is dropped, for the log */
    public DroppedItem(String reason) {
        super(reason, null, false, false);
    }
}
