package org.scrapycluster.kafkamonitor.intake;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.scrapycluster.common.kafka.AbsentTopics;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the messages about a batch's rejected records (rejected-topic entries, error answers) and
 * waits until Kafka has them all: a message that failed for a passing reason (Kafka away, too few
 * in-sync replicas, a leader moving) is sent again after a back-off; one that can never be delivered (a
 * record too large, no permission), or whose send the producer gave up before it returned although
 * Kafka answers (it waited {@code max.block.ms} for a topic that is not there and that Kafka does not
 * create), is logged and dropped, so that it cannot hold up the requests behind it. Such a topic then
 * gets no messages for a while ({@link AbsentTopics}). Once a batch has found one such topic, Kafka is asked which
 * topics it has; once it has found a second among those Kafka does not list (which Kafka would create, where it creates
 * topics), the batch's messages to the others Kafka does not list are dropped the same way, each without a wait of its
 * own: a batch of rejections to many apps without topics (their {@code outbound_<appid>}) would otherwise wait
 * {@code max.block.ms} for each, past the consumer's {@code max.poll.interval.ms}, and lose the partition again and again.
 */
final class RejectionPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(RejectionPublisher.class);

    private final Producer<String, byte[]> producer;
    private final IntakeMetrics metrics;
    private final BooleanSupplier kafkaAnswers;
    private final Supplier<Set<String>> topicsInKafka;
    private final AbsentTopics absentTopics;

    /**
     * @param kafkaAnswers  whether Kafka answers the monitor at the moment it is asked
     * @param topicsInKafka the topics Kafka has, asked now; throws a {@link KafkaException} when Kafka does not say
     */
    RejectionPublisher(Producer<String, byte[]> producer, IntakeMetrics metrics, BooleanSupplier kafkaAnswers,
            Supplier<Set<String>> topicsInKafka, Clock clock) {
        this.producer = producer;
        this.metrics = metrics;
        this.kafkaAnswers = kafkaAnswers;
        this.topicsInKafka = topicsInKafka;
        this.absentTopics = new AbsentTopics(clock);
    }

    /**
     * Publishes {@code messages}; between attempts, {@code wait} is given the back-off to wait
     * (and may throw to give up when the monitor is closing). A message {@code stillOwed} no longer says is owed after a
     * wait (its record's partition went to another consumer meanwhile, which takes the record again and sends its own)
     * is not sent again.
     */
    void publish(List<ProducerRecord<String, byte[]>> messages, Consumer<Duration> wait,
            Predicate<ProducerRecord<String, byte[]>> stillOwed) {
        Backoff backoff = Backoff.standard();
        List<ProducerRecord<String, byte[]>> unsent = messages;
        TopicsInKafka topics = new TopicsInKafka();
        while (!unsent.isEmpty()) {
            Retry retry = new Retry();
            List<Sent> pending = new ArrayList<>(unsent.size());
            for (ProducerRecord<String, byte[]> message : unsent) {
                if (absentTopics.skipped(message.topic()) || topics.lacks(message.topic())) {
                    continue;
                }
                Sent sent = new Sent(message, send(message));
                // a send the producer gave up before it returned (it waited max.block.ms for a topic) is settled at
                // once, so that the rest of the batch skips that topic instead of waiting for it again
                if (sent.future().isDone()) {
                    settle(sent, true, retry, topics);
                } else {
                    pending.add(sent);
                }
            }
            pending.forEach(sent -> settle(sent, false, retry, topics));
            unsent = retry.messages;
            if (!unsent.isEmpty()) {
                metrics.kafkaRetry();
                LOG.atWarn().addKeyValue("error", String.valueOf(retry.cause))
                        .log("Publishing " + unsent.size() + " rejection messages failed, Kafka did not take them for now; retrying");
                wait.accept(backoff.nextDelay());
                unsent = unsent.stream().filter(stillOwed).toList();
            }
        }
    }

    /**
     * Settles a send: nothing when it was delivered; else it is tried again, or given up when it can never be
     * delivered. A retriable failure of a send that gave up before it returned, while Kafka answers, is the producer
     * waiting {@code max.block.ms} for a topic Kafka does not have: trying again would hold the monitor for as long as
     * nobody creates it; unless the producer's buffer stayed full as long (it is a retriable timeout too). One that came
     * later, from the delivery, is of a topic Kafka has, that could not take the message for now.
     *
     * @param failedAtSend whether the send was settled when it returned
     */
    private void settle(Sent sent, boolean failedAtSend, Retry retry, TopicsInKafka topics) {
        outcome(sent.future()).ifPresent(failure -> {
            if (!(failure instanceof RetriableException)) {
                LOG.atError().addKeyValue("topic", sent.message().topic()).setCause(failure)
                        .log("Could not publish a rejection to " + sent.message().topic() + "; it is dropped");
            } else if (failedAtSend && !(failure instanceof BufferExhaustedException) && kafkaAnswers.getAsBoolean()) {
                absentTopics.absent(sent.message().topic(), failure);
                topics.missing(sent.message().topic());
            } else {
                retry.messages.add(sent.message());
                retry.cause = failure;
            }
        });
    }

    private Future<?> send(ProducerRecord<String, byte[]> message) {
        try {
            return producer.send(message);
        } catch (KafkaException e) {
            if (e instanceof InterruptException) {
                throw e;
            }
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Optional<KafkaException> outcome(Future<?> sent) {
        try {
            sent.get();
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of(e.getCause() instanceof KafkaException kafka ? kafka : new KafkaException(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    private record Sent(ProducerRecord<String, byte[]> message, Future<?> future) {
    }

    /**
     * What a batch learnt of the topics Kafka has: nothing until one of its topics was found missing, then the topics
     * Kafka listed, asked once; and whether Kafka also failed to create one it did not list, so that the batch's
     * messages to the others it does not list are dropped without a wait each.
     */
    private final class TopicsInKafka {
        private boolean asked;
        /** Null until asked, or when Kafka did not say: then no topic is dropped for that. */
        private Set<String> listed;
        private boolean unlistedMissing;

        /** A send to {@code topic} gave up waiting for Kafka to have it. */
        void missing(String topic) {
            if (asked) {
                unlistedMissing |= listed != null && !listed.contains(topic);
                return;
            }
            asked = true;
            try {
                listed = topicsInKafka.get();
            } catch (KafkaException e) {
                if (e instanceof InterruptException) {
                    throw e;
                }
                LOG.atWarn().addKeyValue("error", e.toString()).log("Kafka did not say which topics it has; sending to each");
            }
        }

        /** Whether Kafka lacks {@code topic} and would not create it, as far as the batch found; it is then {@link AbsentTopics#absent}. */
        boolean lacks(String topic) {
            if (!unlistedMissing || listed.contains(topic)) {
                return false;
            }
            absentTopics.absent(topic, new KafkaException("Kafka does not list the topic " + topic
                    + ", and did not create another of the batch it did not list"));
            return true;
        }
    }

    /** The messages of an attempt to send again after a back-off, and the last reason. */
    private static final class Retry {
        private final List<ProducerRecord<String, byte[]>> messages = new ArrayList<>();
        private KafkaException cause;
    }
}
