package org.scrapycluster.common.queue;

/**
 * What {@link Enqueuer} did with one request: its outcome, whether it wrote its crawl's timeout key, and for a
 * {@link EnqueueOutcome#KEY_CONFLICT} what Redis said of the key it refused.
 *
 * @param outcome        what became of the request
 * @param timeoutWritten whether the request, which asked for its crawl's timeout key ({@link EnqueueRequest#writeTimeout}),
 *                       wrote it, as the enqueue script alone decides: the original's Kafka monitor sets the key for
 *                       every seed it takes, whatever becomes of the member, so a seed sent again with another
 *                       {@code expires} moves the crawl's expiry (docs/api.md); a stopped or expired crawl, a request
 *                       none of whose keys could be used, and one refused before Redis leave it as it was
 * @param refusal        Redis' words for a {@code KEY_CONFLICT} ({@code WRONGTYPE Operation against a key holding the
 *                       wrong kind of value}); empty for every other outcome
 */
public record EnqueueResult(EnqueueOutcome outcome, boolean timeoutWritten, String refusal) {

    /** A result that is no refusal by Redis. */
    public EnqueueResult(EnqueueOutcome outcome, boolean timeoutWritten) {
        this(outcome, timeoutWritten, "");
    }

    /** The result of a request refused before it reached Redis: {@code outcome}, nothing written. */
    static EnqueueResult refused(EnqueueOutcome outcome) {
        return new EnqueueResult(outcome, false);
    }

    /**
     * The result the enqueue script answered for one request: its outcome, followed after a space by Redis' words when
     * it is a {@code KEY_CONFLICT}.
     */
    static EnqueueResult answered(String answer, boolean timeoutWritten) {
        int space = answer.indexOf(' ');
        return space < 0 ? new EnqueueResult(EnqueueOutcome.valueOf(answer), timeoutWritten)
                : new EnqueueResult(EnqueueOutcome.valueOf(answer.substring(0, space)), timeoutWritten, answer.substring(space + 1));
    }
}
