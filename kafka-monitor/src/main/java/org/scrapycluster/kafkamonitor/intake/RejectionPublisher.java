package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the messages about a batch's rejected records (rejected-topic entries, error answers) and
 * waits until Kafka has them all: a message that failed for a passing reason (Kafka away, a leader
 * moving) is sent again after a back-off, one that can never be delivered (a record too large, no
 * permission) is logged and dropped, so that it cannot hold up the requests behind it.
 */
final class RejectionPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(RejectionPublisher.class);

    private final Producer<String, byte[]> producer;
    private final IntakeMetrics metrics;

    RejectionPublisher(Producer<String, byte[]> producer, IntakeMetrics metrics) {
        this.producer = producer;
        this.metrics = metrics;
    }

    /**
     * Publishes {@code messages}; between attempts, {@code wait} is given the back-off to wait
     * (and may throw to give up when the monitor is closing).
     */
    void publish(List<ProducerRecord<String, byte[]>> messages, Consumer<Duration> wait) {
        Backoff backoff = Backoff.standard();
        List<ProducerRecord<String, byte[]>> unsent = messages;
        while (!unsent.isEmpty()) {
            List<Future<?>> sent = new ArrayList<>(unsent.size());
            for (ProducerRecord<String, byte[]> message : unsent) {
                sent.add(send(message));
            }
            List<ProducerRecord<String, byte[]>> failed = new ArrayList<>();
            KafkaException cause = null;
            for (int i = 0; i < unsent.size(); i++) {
                Optional<KafkaException> failure = outcome(sent.get(i));
                if (failure.isPresent() && failure.get() instanceof RetriableException) {
                    failed.add(unsent.get(i));
                    cause = failure.get();
                } else if (failure.isPresent()) {
                    LOG.atError().addKeyValue("topic", unsent.get(i).topic()).setCause(failure.get())
                            .log("Could not publish a rejection to " + unsent.get(i).topic() + "; it is dropped");
                }
            }
            unsent = failed;
            if (!failed.isEmpty()) {
                metrics.kafkaRetry();
                LOG.atWarn().addKeyValue("error", String.valueOf(cause))
                        .log("Publishing " + failed.size() + " rejection messages failed, Kafka unavailable; retrying");
                wait.accept(backoff.nextDelay());
            }
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
}
