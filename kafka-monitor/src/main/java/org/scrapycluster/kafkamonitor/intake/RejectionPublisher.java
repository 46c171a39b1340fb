package org.scrapycluster.kafkamonitor.intake;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

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
 * waits until Kafka has them all: a message that failed for a passing reason while Kafka is away is
 * sent again after a back-off; one that can never be delivered (a record too large, no permission),
 * or that the producer gave up on although Kafka answers (a topic that is not there and that Kafka
 * does not create), is logged and dropped, so that it cannot hold up the requests behind it. Such a topic
 * then gets no messages for a while ({@link AbsentTopics}).
 */
final class RejectionPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(RejectionPublisher.class);

    private final Producer<String, byte[]> producer;
    private final IntakeMetrics metrics;
    private final BooleanSupplier kafkaAnswers;
    private final AbsentTopics absentTopics;

    /** @param kafkaAnswers whether Kafka answers the monitor at the moment it is asked */
    RejectionPublisher(Producer<String, byte[]> producer, IntakeMetrics metrics, BooleanSupplier kafkaAnswers, Clock clock) {
        this.producer = producer;
        this.metrics = metrics;
        this.kafkaAnswers = kafkaAnswers;
        this.absentTopics = new AbsentTopics(clock);
    }

    /**
     * Publishes {@code messages}; between attempts, {@code wait} is given the back-off to wait
     * (and may throw to give up when the monitor is closing).
     */
    void publish(List<ProducerRecord<String, byte[]>> messages, Consumer<Duration> wait) {
        Backoff backoff = Backoff.standard();
        List<ProducerRecord<String, byte[]>> unsent = messages;
        while (!unsent.isEmpty()) {
            Retry retry = new Retry();
            List<Sent> pending = new ArrayList<>(unsent.size());
            for (ProducerRecord<String, byte[]> message : unsent) {
                if (absentTopics.skipped(message.topic())) {
                    continue;
                }
                Sent sent = new Sent(message, send(message));
                // a send the producer gave up before it returned (it waited max.block.ms for a topic) is settled at
                // once, so that the rest of the batch skips that topic instead of waiting for it again
                if (sent.future().isDone()) {
                    settle(sent, retry);
                } else {
                    pending.add(sent);
                }
            }
            pending.forEach(sent -> settle(sent, retry));
            unsent = retry.messages;
            if (!unsent.isEmpty()) {
                metrics.kafkaRetry();
                LOG.atWarn().addKeyValue("error", String.valueOf(retry.cause))
                        .log("Publishing " + unsent.size() + " rejection messages failed, Kafka unavailable; retrying");
                wait.accept(backoff.nextDelay());
            }
        }
    }

    private void settle(Sent sent, Retry retry) {
        outcome(sent.future()).ifPresent(failure -> {
            if (failure instanceof RetriableException && !kafkaAnswers.getAsBoolean()) {
                retry.messages.add(sent.message());
                retry.cause = failure;
            } else {
                drop(sent.message(), failure);
            }
        });
    }

    /**
     * Gives a message up. A retriable failure while Kafka answers is the producer giving up after its own retries
     * ({@code max.block.ms}, {@code delivery.timeout.ms}) on a topic Kafka does not have: trying again would hold the
     * monitor for as long as nobody creates it.
     */
    private void drop(ProducerRecord<String, byte[]> message, KafkaException failure) {
        if (failure instanceof RetriableException) {
            absentTopics.absent(message.topic(), failure);
        } else {
            LOG.atError().addKeyValue("topic", message.topic()).setCause(failure)
                    .log("Could not publish a rejection to " + message.topic() + "; it is dropped");
        }
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

    /** The messages of an attempt to send again after a back-off, and the last reason. */
    private static final class Retry {
        private final List<ProducerRecord<String, byte[]>> messages = new ArrayList<>();
        private KafkaException cause;
    }
}
