package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;

class RejectionPublisherTest {

    private static final String MISSING = "demo.incoming_rejected";
    private static final String FIREHOSE = "demo.outbound_firehose";
    private static final Set<String> IN_KAFKA = Set.of(FIREHOSE, "demo.outbound_shop");
    /** A topic Kafka does not list, and creates at the first message. */
    private static final String CREATED = "demo.outbound_new";
    private static final Predicate<ProducerRecord<String, byte[]>> ALL_OWED = message -> true;

    /** Kafka, answering, with the topics IN_KAFKA only: a send elsewhere gives up after max.block.ms, before it returns. */
    private final List<String> attempted = new ArrayList<>();
    /** How the next deliveries to the topics Kafka has fail, after their send returned; they succeed when none is left. */
    private final Queue<KafkaException> deliveryFailures = new ArrayDeque<>();
    /** How the next sends to the topics Kafka has fail before they return (a full buffer). */
    private final Queue<KafkaException> sendFailures = new ArrayDeque<>();
    private final MockProducer<String, byte[]> kafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            attempted.add(record.topic());
            if (!IN_KAFKA.contains(record.topic()) && !record.topic().equals(CREATED)) {
                return CompletableFuture.failedFuture(new TimeoutException("Topic " + record.topic()
                        + " not present in metadata after 60000 ms."));
            }
            KafkaException atSend = sendFailures.poll();
            if (atSend != null) {
                return CompletableFuture.failedFuture(atSend);
            }
            KafkaException failure = deliveryFailures.poll();
            return failure == null ? super.send(record, callback) : failingOnceWaitedFor(failure);
        }
    };
    /** The topics Kafka lists, and how many times it was asked. */
    private final AtomicInteger listings = new AtomicInteger();
    private final RejectionPublisher publisher = new RejectionPublisher(kafka, new IntakeMetrics(new SimpleMeterRegistry()), () -> true,
            () -> {
                listings.incrementAndGet();
                return IN_KAFKA;
            }, Clock.systemUTC());

    @Test
    void aTopicKafkaDoesNotHaveCostsOneWaitAndIsThenSkippedForAWhile() {
        publisher.publish(List.of(message(MISSING), message(FIREHOSE), message(MISSING), message(MISSING)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        }, ALL_OWED);
        publisher.publish(List.of(message(MISSING), message(FIREHOSE)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        }, ALL_OWED);

        assertEquals(List.of(MISSING, FIREHOSE, FIREHOSE), attempted,
                "only the first message waits for the missing topic; the rest of that batch and the next skip it");
        assertEquals(List.of(FIREHOSE, FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList());
    }

    /**
     * A batch of rejections to many apps without topics waits for two only: Kafka is asked once which topics it has, and
     * once a topic it does not list is found missing too (it does not create topics), the messages to the others it does
     * not list are dropped at once, so the batch ends within the consumer's poll interval; the messages to topics it has
     * are sent.
     */
    @Test
    void aBatchToManyMissingTopicsWaitsForOneAndAsksKafkaWhichItHas() {
        List<ProducerRecord<String, byte[]>> batch = new ArrayList<>(List.of(message(MISSING)));
        IntStream.range(0, 50).forEach(app -> batch.add(message("demo.outbound_app" + app)));
        batch.add(message("demo.outbound_shop"));
        batch.add(message(FIREHOSE));

        publisher.publish(batch, backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        }, ALL_OWED);

        assertEquals(List.of(MISSING, "demo.outbound_app0", "demo.outbound_shop", FIREHOSE), attempted,
                "two waits, then only the topics Kafka lists");
        assertEquals(1, listings.get());
        assertEquals(List.of("demo.outbound_shop", FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList());
    }

    /** A topic Kafka does not list yet is sent to after one was found missing, for Kafka may create it (it does here). */
    @Test
    void aTopicKafkaCreatesIsSentToAfterAnotherWasFoundMissing() {
        publisher.publish(List.of(message(MISSING), message(CREATED), message(FIREHOSE)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        }, ALL_OWED);

        assertEquals(List.of(CREATED, FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList());
    }

    /**
     * A topic Kafka has, whose delivery fails for a passing reason after the producer's own retries (too few in-sync
     * replicas while a broker is down): the consumer still reaches Kafka, and the message is sent again, not dropped.
     */
    @Test
    void aDeliveryThatFailedForAPassingReasonIsSentAgainWhileKafkaAnswers() {
        deliveryFailures.add(new NotEnoughReplicasException("Messages are rejected since there are fewer in-sync replicas than required."));
        deliveryFailures.add(new TimeoutException("Expiring 1 record(s) for " + FIREHOSE + "-0: 120000 ms has passed since creation"));
        List<Duration> waits = new ArrayList<>();

        publisher.publish(List.of(message(FIREHOSE)), waits::add, ALL_OWED);

        assertEquals(2, waits.size(), "a back-off before each attempt again");
        assertEquals(List.of(FIREHOSE, FIREHOSE, FIREHOSE), attempted);
        assertEquals(List.of(FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList());

        publisher.publish(List.of(message(FIREHOSE)), backoff -> {
            throw new AssertionError("the topic is not taken for one Kafka does not have");
        }, ALL_OWED);
        assertEquals(2, kafka.history().size());
    }

    /** A producer whose buffer stayed full for max.block.ms gives the send up before it returns: the topic is there all the same. */
    @Test
    void aFullBufferIsWaitedOutNotTakenForAMissingTopic() {
        sendFailures.add(new BufferExhaustedException("Failed to allocate 2048 bytes within the configured max blocking time 60000 ms."));
        List<Duration> waits = new ArrayList<>();

        publisher.publish(List.of(message(FIREHOSE)), waits::add, ALL_OWED);

        assertEquals(1, waits.size());
        assertEquals(List.of(FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList(), "sent again, not dropped");
        publisher.publish(List.of(message(FIREHOSE)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        }, ALL_OWED);
        assertEquals(2, kafka.history().size(), "the topic is not skipped afterwards");
    }

    /** A message about a record whose partition went to another consumer while the monitor waited is not sent again. */
    @Test
    void aMessageNoLongerOwedAfterAWaitIsNotSentAgain() {
        deliveryFailures.add(new NotEnoughReplicasException("Messages are rejected since there are fewer in-sync replicas than required."));
        ProducerRecord<String, byte[]> kept = message(FIREHOSE);
        ProducerRecord<String, byte[]> revoked = message(FIREHOSE);
        deliveryFailures.add(new NotEnoughReplicasException("Messages are rejected since there are fewer in-sync replicas than required."));
        AtomicBoolean rebalanced = new AtomicBoolean();

        publisher.publish(List.of(kept, revoked), backoff -> rebalanced.set(true), message -> !rebalanced.get() || message != revoked);

        assertEquals(List.of(FIREHOSE, FIREHOSE, FIREHOSE), attempted, "both sent, then the one still owed");
        assertEquals(List.of(kept), kafka.history());
    }

    /** The future of a delivery that fails once it is waited for: not done when send returned. */
    private static Future<RecordMetadata> failingOnceWaitedFor(KafkaException failure) {
        return new CompletableFuture<>() {
            @Override
            public RecordMetadata get() throws InterruptedException, ExecutionException {
                completeExceptionally(failure);
                return super.get();
            }
        };
    }

    private static ProducerRecord<String, byte[]> message(String topic) {
        return new ProducerRecord<>(topic, new byte[] {'{', '}'});
    }
}
