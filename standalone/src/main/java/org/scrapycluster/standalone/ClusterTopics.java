package org.scrapycluster.standalone;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.settings.SettingsGroup;

/**
 * The cluster's own topics, created in the embedded broker before the services start: without them, each consumer
 * (the Kafka monitor's of the incoming topic, the gateway's of the outbound firehose) would log Kafka's warnings of
 * an unknown topic until its first reader or writer had the broker create it, and {@code kcat -L} would not list a
 * fresh cluster's topics. A broker the user runs ({@code KAFKA_HOSTS}) is left as it is (docs/operations.md
 * "Processes").
 */
final class ClusterTopics {

    private static final long CREATE_SECONDS = 30;
    /** The service whose settings name the topics and the broker. */
    private static final String KAFKA_MONITOR = "kafka-monitor";

    private ClusterTopics() {
    }

    /** The topics the services read or write whatever they are asked: incoming, its rejects and the two firehoses. */
    static Set<String> of(SettingsGroup settings) {
        Set<String> names = new LinkedHashSet<>();
        for (String service : List.of(KAFKA_MONITOR, "rest")) {
            names.add(Topics.from(settings.service(service)).incoming());
        }
        Topics topics = Topics.from(settings.service(KAFKA_MONITOR));
        names.add(topics.incomingRejected());
        names.add(topics.crawledFirehose());
        names.add(topics.outboundFirehose());
        return names;
    }

    /** Creates {@link #of the cluster's topics} that the broker of {@code settings} does not have yet, with its defaults. */
    static void create(SettingsGroup settings) {
        try (Admin admin = new KafkaClients(settings.service(KAFKA_MONITOR)).admin()) {
            List<NewTopic> topics = of(settings).stream().map(name -> new NewTopic(name, Optional.empty(), Optional.empty())).toList();
            for (KafkaFuture<Void> created : admin.createTopics(topics).values().values()) {
                awaitCreated(created);
            }
        }
    }

    private static void awaitCreated(KafkaFuture<Void> created) {
        try {
            created.get(CREATE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("the embedded Kafka did not create the cluster's topics", e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("the embedded Kafka did not create the cluster's topics within " + CREATE_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the embedded Kafka created the cluster's topics", e);
        }
    }
}
