package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The span of a crawl's results by their own timestamps: from the earliest to the latest of the records between two sets
 * of offsets, read from the two ends of each partition's range only, {@link #ENDS} records at each, not the whole range
 * (a crawl of 20,000 pages is some 320 MB). A partition's records are in the order the cluster's producers appended
 * them, and a producer takes a record's time as it appends it, so within a partition the timestamps rise but for the
 * few records that two threads appended in the other order than they took their times; several producers writing one
 * partition differ by their clocks too. The earliest and latest are therefore among each range's first and last records.
 */
final class ResultTimes {

    /** Records read at each end of each partition's range. */
    static final int ENDS = 100;
    private static final Duration POLL = Duration.ofMillis(500);

    private final KafkaConsumer<?, ?> consumer;
    private final Duration patience;
    private long earliest = Long.MAX_VALUE;
    private long latest = Long.MIN_VALUE;

    private ResultTimes(KafkaConsumer<?, ?> consumer, Duration patience) {
        this.consumer = consumer;
        this.patience = patience;
    }

    /**
     * From the earliest timestamp to the latest of the records of each partition from its offset in {@code from} up to
     * (not including) its offset in {@code to}, read with {@code consumer}. The consumer is left assigned every partition
     * of {@code to}, paused, so that its end offsets can be asked for again without Kafka's warning that a partition
     * asked about is not assigned; it fetches from one partition at a time.
     *
     * @throws IllegalStateException when a partition's records are not read within {@code patience}, or there is none
     */
    static Duration span(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> from, Map<TopicPartition, Long> to,
            Duration patience) {
        ResultTimes times = new ResultTimes(consumer, patience);
        consumer.assign(to.keySet());
        consumer.pause(to.keySet());
        to.forEach((partition, end) -> {
            long start = from.getOrDefault(partition, end);
            if (end - start <= 2L * ENDS) {
                times.read(partition, start, end);
            } else {
                times.read(partition, start, start + ENDS);
                times.read(partition, end - ENDS, end);
            }
        });
        if (times.earliest > times.latest) {
            throw new IllegalStateException("no record between the offsets " + from + " and " + to);
        }
        return Duration.ofMillis(times.latest - times.earliest);
    }

    private void read(TopicPartition partition, long start, long end) {
        if (start >= end) {
            return;
        }
        consumer.seek(partition, start);
        consumer.resume(List.of(partition));
        long deadline = System.nanoTime() + patience.toNanos();
        while (consumer.position(partition) < end) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the records of " + partition + " from offset " + start + " to " + end
                        + " could not be read within " + patience.toSeconds() + " s");
            }
            for (ConsumerRecord<?, ?> record : consumer.poll(POLL)) {
                if (record.offset() < end) {
                    earliest = Math.min(earliest, record.timestamp());
                    latest = Math.max(latest, record.timestamp());
                }
            }
        }
        consumer.pause(List.of(partition));
    }
}
