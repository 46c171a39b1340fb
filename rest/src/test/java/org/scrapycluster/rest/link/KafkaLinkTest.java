package org.scrapycluster.rest.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import ch.qos.logback.classic.Level;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.OutboundResponder;

/**
 * What ends the gateway's reader of answers, against the shared broker: a message its listener fails on with a stack
 * overflow is skipped and the next one read; an error the gateway cannot go on from (a method its jar lacks) ends the
 * loop, and is told once the link's clients are closed; a partition added while it reads is read whole; a first
 * partition awaited long is said at WARN, not while the reader joins its group.
 */
@ExtendWith(SharedStack.class)
class KafkaLinkTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    private final GatewaySettings settings;
    private final List<String> read = new CopyOnWriteArrayList<>();
    private final List<Throwable> ended = new CopyOnWriteArrayList<>();

    KafkaLinkTest(EmbeddedStack stack) {
        this.settings = GatewaySettings.forStack(stack);
    }

    @Test
    void aMessageTheListenerOverflowsItsStackOnIsSkippedAndTheNextOneRead() {
        try (KafkaLink link = link(text -> {
                if (text.equals("overflowing")) {
                    throw new StackOverflowError();
                }
                read.add(text);
            });
             OutboundResponder outbound = new OutboundResponder(settings)) {
            link.start();
            Awaitility.await().atMost(WAIT).until(link::readingAnswers);
            outbound.publish("overflowing");
            outbound.publish("next");

            Awaitility.await().atMost(WAIT).until(() -> read.equals(List.of("next")));
            assertEquals(List.of(), ended);
            assertTrue(link.liveness().isUp());
        }
    }

    @Test
    void aMethodTheGatewaysJarLacksEndsTheLinkAndIsToldOnceItsClientsAreClosed() {
        NoSuchMethodError stale = new NoSuchMethodError("'void org.scrapycluster.Gone.method()'");
        try (KafkaLink link = link(text -> {
                throw stale;
            });
             OutboundResponder outbound = new OutboundResponder(settings)) {
            link.start();
            Awaitility.await().atMost(WAIT).until(link::readingAnswers);
            outbound.publish("any answer");

            Awaitility.await().atMost(WAIT).until(() -> !ended.isEmpty());
            assertEquals(List.of(stale), ended, "told once, with the error itself");
            assertFalse(link.readingAnswers());
            Awaitility.await().atMost(WAIT).until(() -> !link.liveness().isUp());
        }
    }

    /**
     * A partition added to the outbound topic while the link reads is read from its beginning: the Redis monitors write to
     * it as soon as they know of it, the link only once its metadata is refreshed.
     */
    @Test
    void aPartitionAddedWhileReadingIsReadFromItsBeginning() throws Exception {
        settings.set("KAFKA_CLIENT_PROPERTIES", "{metadata.max.age.ms: 300}");
        try (KafkaLink link = link(read::add);
             OutboundResponder outbound = new OutboundResponder(settings);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka()))) {
            link.start();
            Awaitility.await().atMost(WAIT).until(link::readingAnswers);
            outbound.publish("first");
            Awaitility.await().atMost(WAIT).until(() -> read.equals(List.of("first")));

            int added = admin.describeTopics(List.of(settings.outboundTopic())).allTopicNames().get()
                    .get(settings.outboundTopic()).partitions().size();
            admin.createPartitions(Map.of(settings.outboundTopic(), NewPartitions.increaseTo(added + 1))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    settings.kafka()), new ByteArraySerializer(), new ByteArraySerializer())) {
                byte[] answer = "on the new partition".getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(settings.outboundTopic(), added, null, answer)).get();
            }
            Awaitility.await().atMost(WAIT).until(() -> read.equals(List.of("first", "on the new partition")));
        }
    }

    /**
     * A broker that hangs (a frozen process) keeps its connections open and answers nothing: the gateway took it for
     * reachable, its check up, and fed requests into a producer that could not send them. Kafka is asked here every
     * 100 ms, out of reach after 300 ms of unanswered questions.
     */
    @Test
    void aKafkaThatLeavesItsQuestionsUnansweredIsUnreachableUntilItAnswersOneAgain() {
        AtomicBoolean answers = new AtomicBoolean(true);
        Clock clock = Clock.systemUTC();
        TopicReach reach = new TopicReach(settings.outboundTopic(), (topic, wait) -> answers.get()
                ? CompletableFuture.completedFuture(true)
                : CompletableFuture.failedFuture(new TimeoutException("Timed out waiting for a node assignment")),
                () -> { }, clock, Duration.ofMillis(300));
        try (KafkaLink link = new KafkaLink(config(), value -> { }, ended::add, reach, clock)) {
            link.start();
            Awaitility.await().atMost(WAIT).until(link::readingAnswers);

            answers.set(false);
            Awaitility.await().atMost(WAIT).until(() -> !link.reachable());
            assertTrue(link.state().startsWith("Kafka has left every question since "), link.state());
            assertFalse(link.health().isUp());
            assertThrows(KafkaUnavailableException.class, () -> link.send(settings.outboundTopic(), new byte[] {'{', '}'}));

            answers.set(true);
            Awaitility.await().atMost(WAIT).until(link::readingAnswers);
            assertTrue(link.health().isUp());
        }
    }

    /**
     * A reader joining its group waits a few seconds for its first partition, said at INFO; one that waits
     * {@link KafkaLink#PARTITIONS_GRACE} (its topic missing, on a broker that creates none) is said at WARN, once.
     */
    @Test
    void aFirstPartitionAwaitedIsSaidAtInfoAndAtWarnOnlyOnceTheGraceIsOver() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T10:00:00Z"));
        Clock clock = ((InstantSource) now::get).withZone(ZoneOffset.UTC);
        TopicReach reach = new TopicReach(settings.outboundTopic(), (topic, wait) -> CompletableFuture.completedFuture(true),
                () -> { }, clock, Duration.ofSeconds(30));
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0, 1, DataDirectory.temporary("rest-link-no-topics"), false);
             CapturedLog log = CapturedLog.start(KafkaLink.class, Level.INFO)) {
            settings.set("KAFKA_HOSTS", kafka.bootstrapServers());
            try (KafkaLink link = new KafkaLink(config(), value -> { }, ended::add, reach, clock)) {
                link.start();
                Awaitility.await().atMost(WAIT).until(() -> link.state().startsWith("connected, but no partition"));
                assertEquals(List.of("INFO Kafka connected: waiting for a partition of " + settings.outboundTopic() + " to be assigned"),
                        said(log), "joining the group is no warning");

                now.set(now.get().plus(KafkaLink.PARTITIONS_GRACE));
                Awaitility.await().atMost(WAIT).until(() -> said(log).size() == 2);
                assertTrue(said(log).get(1).startsWith("WARN Kafka connected, but no partition of " + settings.outboundTopic()),
                        String.valueOf(said(log)));
            }
        }
    }

    /** What {@code log} has said of Kafka's connection, each as its level and message. */
    private static List<String> said(CapturedLog log) {
        return log.events().stream().filter(event -> event.getFormattedMessage().startsWith("Kafka "))
                .map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
    }

    /** A link reading the settings' outbound topic that hands each message, as text, to {@code listener}. */
    private KafkaLink link(Consumer<String> listener) {
        return new KafkaLink(config(), value -> listener.accept(new String(value, StandardCharsets.UTF_8)), ended::add);
    }

    private KafkaLink.Config config() {
        return new KafkaLink.Config(new KafkaClients(settings.build()), settings.outboundTopic(), GatewaySettings.unique("link"),
                Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofSeconds(10));
    }
}
