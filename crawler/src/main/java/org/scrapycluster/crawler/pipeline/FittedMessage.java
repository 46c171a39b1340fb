package org.scrapycluster.crawler.pipeline;

import java.time.Instant;

import org.scrapycluster.crawler.pipeline.ResultMessage.Omitted;

/**
 * A result's message cut down to what Kafka takes (docs/differences.md): whole when it fits; else without its body
 * ({@code "body_omitted": true}); else, for a page listing thousands of links, without its links too
 * ({@code "links_omitted": true}); else none, when what is left (large {@code attrs}, headers or fields a spider added)
 * is still too large: the page cannot be published, and is not counted as published. Which one is decided here and
 * nowhere else, so that the pipeline only sends what this says. Each message tried is written only as far as the
 * limit: one that would be larger is given up there, not written whole and then measured.
 *
 * @param message the bytes to send; null when even the smallest message is too large
 * @param omitted what the message leaves out; when none fits, what the smallest one tried left out
 */
record FittedMessage(byte[] message, Omitted omitted) {

    /**
     * The largest message of {@code item} of at most {@code maxBytes}, leaving out as little as it can.
     *
     * @throws java.io.UncheckedIOException when JSON cannot write a value of the item
     */
    static FittedMessage of(ResultMessage messages, CrawlResult item, Instant timestamp, int maxBytes) {
        byte[] whole = messages.encode(item, timestamp, Omitted.NOTHING, maxBytes);
        if (whole != null) {
            return new FittedMessage(whole, Omitted.NOTHING);
        }
        byte[] withoutBody = messages.encode(item, timestamp, Omitted.BODY, maxBytes);
        if (withoutBody != null || item.links().isEmpty()) {
            return new FittedMessage(withoutBody, Omitted.BODY);
        }
        return new FittedMessage(messages.encode(item, timestamp, Omitted.BODY_AND_LINKS, maxBytes), Omitted.BODY_AND_LINKS);
    }

    /** Whether a message fits: false when the page cannot be published. */
    boolean fits() {
        return message != null;
    }
}
