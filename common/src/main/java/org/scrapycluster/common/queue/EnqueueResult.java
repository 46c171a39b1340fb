package org.scrapycluster.common.queue;

/**
 * What {@link Enqueuer} did with one request: its outcome, and whether it wrote its crawl's timeout key.
 *
 * @param outcome        what became of the request
 * @param timeoutWritten whether the request, which asked for its crawl's timeout key ({@link EnqueueRequest#writeTimeout}),
 *                       wrote it, as the enqueue script alone decides: the original's Kafka monitor sets the key for
 *                       every seed it takes, whatever becomes of the member, so a seed sent again with another
 *                       {@code expires} moves the crawl's expiry (docs/api.md); a stopped or expired crawl, a request
 *                       none of whose keys could be used, and one refused before Redis leave it as it was
 */
public record EnqueueResult(EnqueueOutcome outcome, boolean timeoutWritten) {

    /** The result of a request refused before it reached Redis: {@code outcome}, nothing written. */
    static EnqueueResult refused(EnqueueOutcome outcome) {
        return new EnqueueResult(outcome, false);
    }
}
