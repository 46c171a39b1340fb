package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * When a crawl watched from outside is over: once the end offsets of the crawled firehose have stood still for the quiet
 * period (docs/benchmarks.md, "How it is measured"). The period counts from the last move seen, or from the start when
 * none was, so a watcher that looks every second ends a crawl up to a second later than the period after its last page.
 */
final class QuietEnd {

    private final Duration quiet;
    private final InstantSource clock;
    private long endOffsets;
    private Instant movedAt;
    private int stillLooks;

    /** @param endOffsets the sum of the topic's end offsets when the crawl starts, before its requests are sent */
    QuietEnd(Duration quiet, InstantSource clock, long endOffsets) {
        this.quiet = quiet;
        this.clock = clock;
        this.endOffsets = endOffsets;
        this.movedAt = clock.instant();
    }

    /** Takes the sum of the end offsets seen now; true once it has not moved for the quiet period. */
    boolean isReached(long endOffsets) {
        Instant now = clock.instant();
        if (endOffsets != this.endOffsets) {
            this.endOffsets = endOffsets;
            movedAt = now;
            stillLooks = 0;
        } else {
            stillLooks++;
        }
        return !now.isBefore(movedAt.plus(quiet));
    }

    /**
     * The looks ({@link #isReached}) in a row, up to the last, that found the end offsets where the one before had:
     * 1 at the first look after a move that found no more records, when the crawl's last results are in.
     */
    int stillLooks() {
        return stillLooks;
    }
}
