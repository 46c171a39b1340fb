package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;

class RejectionPublisherTest {

    private static final String MISSING = "demo.incoming_rejected";
    private static final String FIREHOSE = "demo.outbound_firehose";

    /** Kafka, answering, without the rejected topic: a send there gives up after max.block.ms, before it returns. */
    private final List<String> attempted = new ArrayList<>();
    private final MockProducer<String, byte[]> kafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()) {
        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            attempted.add(record.topic());
            if (record.topic().equals(MISSING)) {
                return CompletableFuture.failedFuture(new TimeoutException("Topic " + MISSING + " not present in metadata after 60000 ms."));
            }
            return super.send(record, callback);
        }
    };
    private final RejectionPublisher publisher = new RejectionPublisher(kafka, new IntakeMetrics(new SimpleMeterRegistry()), () -> true,
            Clock.systemUTC());

    @Test
    void aTopicKafkaDoesNotHaveCostsOneWaitAndIsThenSkippedForAWhile() {
        publisher.publish(List.of(message(MISSING), message(FIREHOSE), message(MISSING), message(MISSING)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        });
        publisher.publish(List.of(message(MISSING), message(FIREHOSE)), backoff -> {
            throw new AssertionError("nothing is retried while Kafka answers");
        });

        assertEquals(List.of(MISSING, FIREHOSE, FIREHOSE), attempted,
                "only the first message waits for the missing topic; the rest of that batch and the next skip it");
        assertEquals(List.of(FIREHOSE, FIREHOSE), kafka.history().stream().map(ProducerRecord::topic).toList());
    }

    private static ProducerRecord<String, byte[]> message(String topic) {
        return new ProducerRecord<>(topic, new byte[] {'{', '}'});
    }
}
