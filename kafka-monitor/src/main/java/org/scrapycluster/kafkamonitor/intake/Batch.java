package org.scrapycluster.kafkamonitor.intake;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of one poll and what became of each, kept until their Redis writes and
 * publications are done and their offsets committed. When the consumer loses partitions in the
 * meantime (a rebalance), their records leave the batch: whoever owns the partitions next takes
 * them again from the last committed offset. Used by the consumer's thread only (rebalance
 * callbacks run on it, inside a poll).
 */
final class Batch {

    private final List<Entry> entries;
    private final long polledNanos;

    Batch(List<Entry> entries, long polledNanos) {
        this.entries = new ArrayList<>(entries);
        this.polledNanos = polledNanos;
    }

    /**
     * One record.
     *
     * @param partition   where it came from
     * @param offset      its offset
     * @param value       its bytes (null for a record without a value)
     * @param disposition what becomes of it
     */
    record Entry(TopicPartition partition, long offset, byte[] value, Disposition disposition) {

        Entry {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(disposition, "disposition");
        }

        Entry settled(Disposition settled) {
            return new Entry(partition, offset, value, settled);
        }
    }

    List<Entry> entries() {
        return List.copyOf(entries);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** {@link System#nanoTime()} when the batch was polled. */
    long polledNanos() {
        return polledNanos;
    }

    /** Replaces the entries with {@code settled}: the current ones, in order, with their final dispositions. */
    void settle(List<Entry> settled) {
        entries.clear();
        entries.addAll(settled);
    }

    /** Whether the batch still holds records of {@code partition}: this consumer owns it. */
    boolean owns(TopicPartition partition) {
        return entries.stream().anyMatch(entry -> entry.partition().equals(partition));
    }

    /** Drops the records of {@code partitions}, which this consumer no longer owns. */
    void drop(Collection<TopicPartition> partitions) {
        entries.removeIf(entry -> partitions.contains(entry.partition()));
    }

    /** The offsets to commit: per partition, the one after the batch's last record. */
    Map<TopicPartition, OffsetAndMetadata> offsets() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (Entry entry : entries) {
            offsets.merge(entry.partition(), new OffsetAndMetadata(entry.offset() + 1),
                    (a, b) -> a.offset() >= b.offset() ? a : b);
        }
        return offsets;
    }
}
