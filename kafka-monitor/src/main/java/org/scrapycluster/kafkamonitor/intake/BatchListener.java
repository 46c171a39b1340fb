package org.scrapycluster.kafkamonitor.intake;

/**
 * Told about each batch the monitor finishes, on the monitor's thread: the benchmark measures
 * with it, and a test can stop the process at a chosen point.
 */
public interface BatchListener {

    /** A listener that does nothing. */
    BatchListener NONE = new BatchListener() {
    };

    /** The batch's Redis writes succeeded; its rejections are not published and its offsets not committed yet. */
    default void written(BatchSummary batch) {
    }

    /** The batch's offsets are committed. */
    default void committed(BatchSummary batch) {
    }
}
