package org.scrapycluster.bench;

import java.util.List;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** The topics a benchmark makes for itself: one partition, one replica, so that reading them back is simple. */
public final class BenchmarkTopics {

    private BenchmarkTopics() {
    }

    /**
     * Creates {@code topic} and waits until Kafka has.
     *
     * @throws IllegalStateException when Kafka refuses it (it exists, the broker is away), with Kafka's reason
     */
    public static void create(Admin admin, String topic) throws InterruptedException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create the topic " + topic + ": " + e.getCause(), e.getCause());
        }
    }
}
