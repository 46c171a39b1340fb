package org.scrapycluster.redismonitor.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.redismonitor.job.Answer;

class OutboundPublisherTest {

    /** Redis's time, as the monitor reads it: its records are stamped with it. */
    private static final Clock REDIS_TIME = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);

    private final MockProducer<String, byte[]> kafka = new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    private final OutboundPublisher publisher = new OutboundPublisher(kafka, Topics.withPrefix("shop"), true, Duration.ofSeconds(10),
            new Json(new JsonLimits(64, 1 << 20, 1 << 20)),
            new TopicReach("shop.outbound_firehose", (topic, wait) -> new CompletableFuture<>(), () -> { }, Clock.systemUTC(),
                    Duration.ofSeconds(30)), REDIS_TIME);

    @Test
    void anAppTopicKafkaDoesNotTakeWhileTheFirehoseTakesTheAnswerIsSkippedForAWhile() throws Exception {
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> publish("uuid-1"));
        Awaitility.await().until(() -> kafka.history().size() == 2);
        kafka.completeNext();
        kafka.errorNext(new TimeoutException("Topic shop.outbound_app not present in metadata after 10000 ms."));
        first.get();

        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> publish("uuid-2"));
        Awaitility.await().until(() -> kafka.history().size() >= 3 && kafka.completeNext());
        while (kafka.completeNext()) {
            // any copy for the app's topic is taken too, so that the answer is published either way
        }
        second.get();

        assertEquals(List.of("shop.outbound_firehose", "shop.outbound_app", "shop.outbound_firehose"),
                kafka.history().stream().map(ProducerRecord::topic).toList(),
                "the next answer goes to the firehose only, instead of waiting for a topic Kafka does not have");
        assertEquals(List.of(REDIS_TIME.millis(), REDIS_TIME.millis(), REDIS_TIME.millis()),
                kafka.history().stream().map(ProducerRecord::timestamp).toList(), "stamped with Redis's time, not the host's");
    }

    @Test
    void anAppCopyKafkaRefusesForGoodWhileTheFirehoseTakesTheAnswerIsDroppedNotTheJobsFailure() throws Exception {
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> publish("uuid-1"));
        Awaitility.await().until(() -> kafka.history().size() == 2);
        kafka.completeNext();
        kafka.errorNext(new TopicAuthorizationException(Set.of("shop.outbound_app")));
        first.get(); // returns: the firehose has the answer, so the job is done

        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> publish("uuid-2"));
        Awaitility.await().until(() -> kafka.history().size() >= 3 && kafka.completeNext());
        second.get();
        assertEquals(List.of("shop.outbound_firehose", "shop.outbound_app", "shop.outbound_firehose"),
                kafka.history().stream().map(ProducerRecord::topic).toList(), "the refusing topic is skipped for a while");
    }

    @Test
    void anAppCopyTakenJustAfterTheFirehoseUsedUpMostOfTheTimeIsNotTakenForAnAbsentTopic() throws Exception {
        OutboundPublisher hurried = new OutboundPublisher(kafka, Topics.withPrefix("shop"), true, Duration.ofSeconds(4),
                new Json(new JsonLimits(64, 1 << 20, 1 << 20)),
                new TopicReach("shop.outbound_firehose", (topic, wait) -> new CompletableFuture<>(), () -> { }, Clock.systemUTC(),
                        Duration.ofSeconds(30)), REDIS_TIME);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> publish(hurried, "app", "uuid-1"));
        Awaitility.await().until(() -> kafka.history().size() == 2);
        Thread.sleep(3000); // Kafka slow, as in a leader's election: the firehose takes it near the end of the time
        kafka.completeNext();
        Thread.sleep(1500); // past the 4 s of the whole answer, within the copy's own 4 s
        kafka.completeNext();
        first.get();

        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> publish(hurried, "app", "uuid-2"));
        Awaitility.await().until(() -> kafka.history().size() == 4);
        while (kafka.completeNext()) {
            // both copies taken
        }
        second.get();
        assertEquals(List.of("shop.outbound_firehose", "shop.outbound_app", "shop.outbound_firehose", "shop.outbound_app"),
                kafka.history().stream().map(ProducerRecord::topic).toList(), "the app's topic is not skipped: Kafka took the copy");
    }

    @Test
    void aStopThatInterruptsTheWaitForKafkaLetsItLearnWhetherKafkaTookTheAnswer() throws Exception {
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        Thread publishing = Thread.ofPlatform().start(() -> {
            try {
                publish("uuid-1");
                interruptedAfter.complete(Thread.currentThread().isInterrupted());
            } catch (RuntimeException e) {
                interruptedAfter.completeExceptionally(e);
            }
        });
        Awaitility.await().until(() -> kafka.history().size() == 2);

        publishing.interrupt(); // a stop: the producer would deliver the answer at its close all the same
        Thread.sleep(200);
        while (kafka.completeNext()) {
            // Kafka takes the answer and its app's copy
        }

        assertEquals(true, interruptedAfter.get(), "sent, and the interrupt kept for the caller");
    }

    @Test
    void whenKafkaTakesSomeOfTheAnswersSentTogetherTheFailureNamesThem() throws Exception {
        CompletableFuture<Set<Integer>> taken = CompletableFuture.supplyAsync(() -> {
            try {
                publisher.publish(Stream.of("u-1", "u-2", "u-3").map(uuid -> new Answer("app", Map.of("uuid", uuid), "Sent")).toList());
                return Set.of();
            } catch (OutboundUnavailableException e) {
                return e.taken();
            }
        });
        Awaitility.await().until(() -> kafka.history().size() == 6);

        kafka.errorNext(new NotEnoughReplicasException("one replica in sync"));
        kafka.completeNext();
        kafka.completeNext();

        assertEquals(Set.of(1, 2), taken.get(), "the answers after the one that failed are waited for");
    }

    @Test
    void anAnswerWhoseAppTopicNameWouldBeTooLongForKafkaGoesToTheFirehoseOnly() throws Exception {
        String appid = "a".repeat(240); // a legal appid, but shop.outbound_<appid> is over Kafka's 249 characters
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> publish(appid, "uuid-long"));
        Awaitility.await().until(() -> kafka.history().size() == 1 && kafka.completeNext());
        sent.get();

        assertEquals(List.of("shop.outbound_firehose"), kafka.history().stream().map(ProducerRecord::topic).toList());
    }

    private void publish(String uuid) {
        publish("app", uuid);
    }

    private void publish(String appid, String uuid) {
        publish(publisher, appid, uuid);
    }

    private static void publish(OutboundPublisher publisher, String appid, String uuid) {
        try {
            publisher.publish(List.of(new Answer(appid, Map.of("appid", appid, "uuid", uuid), "Sent info to kafka")));
        } catch (OutboundUnavailableException e) {
            throw new IllegalStateException(e);
        }
    }
}
