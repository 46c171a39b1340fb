package org.scrapycluster.common.kafka;

import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** The partitions of a topic, for a consumer that reads by assignment rather than in a group. */
public final class TopicPartitions {

    private static final Duration RETRY = Duration.ofMillis(100);

    private TopicPartitions() {
    }

    /**
     * The partitions of {@code topic} once {@code consumer}'s broker has them in its metadata, which a topic created a
     * moment ago may not be yet (Kafka then names no partitions rather than fail); empty when it still has none after
     * {@code wait}, or when the thread is interrupted (its flag set again).
     */
    public static List<TopicPartition> of(Consumer<?, ?> consumer, String topic, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, wait);
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            }
            if (System.nanoTime() > deadline) {
                return List.of();
            }
            try {
                Thread.sleep(RETRY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
    }
}
