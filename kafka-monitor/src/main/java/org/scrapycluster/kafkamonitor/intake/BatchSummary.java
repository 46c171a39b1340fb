package org.scrapycluster.kafkamonitor.intake;

/**
 * What one batch held.
 *
 * @param records     records in the batch
 * @param accepted    requests written to Redis (including those already there)
 * @param rejected    records rejected
 * @param polledNanos {@link System#nanoTime()} when the batch was polled
 */
public record BatchSummary(int records, int accepted, int rejected, long polledNanos) {
}
