package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import javax.net.ssl.SSLHandshakeException;

import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.SettableClock;

/**
 * When a {@link TopicReach} says Kafka is out of reach, with Kafka's answers scripted and a clock moved by hand (the
 * crawler's and the Redis monitor's outage tests ask a real broker that is stopped).
 */
class TopicReachTest {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration PERIOD = Duration.ofSeconds(10);
    private static final String SILENT_SINCE_START = "Kafka has left every question since 2026-03-01T10:00:00Z unanswered "
            + "(whether demo.crawled_firehose has a leader); it has answered none yet";
    private static final String SILENT_AFTER_AN_ANSWER = "Kafka has left every question since 2026-03-01T10:00:10Z unanswered "
            + "(whether demo.crawled_firehose has a leader); it last answered one asked at 2026-03-01T10:00:00Z";

    private final SettableClock clock = new SettableClock(START);
    private final List<CompletableFuture<Boolean>> questions = new ArrayList<>();
    private final List<Duration> waits = new ArrayList<>();
    private TopicReach reach = reachAfter(Duration.ofSeconds(30));

    /** A reach out of reach after {@code span}, whose questions go to {@link #questions}. */
    private TopicReach reachAfter(Duration span) {
        return new TopicReach("demo.crawled_firehose", (topic, wait) -> {
            CompletableFuture<Boolean> question = new CompletableFuture<>();
            questions.add(question);
            waits.add(wait);
            return question;
        }, () -> { }, clock, span);
    }

    /** Reads the reach, lets Kafka not answer the question that asks, and moves on {@link #PERIOD}. */
    private Optional<String> readUnanswered() {
        return readUnanswered(PERIOD);
    }

    /** Reads the reach, lets Kafka not answer the question that asks, and moves on {@code period}. */
    private Optional<String> readUnanswered(Duration period) {
        Optional<String> said = reach.outOfReach();
        questions.getLast().completeExceptionally(new TimeoutException("Timed out waiting for a node assignment"));
        clock.advance(period);
        return said;
    }

    /** Kafka answers the first question, and {@link #PERIOD} passes. */
    private void answeredOnce() {
        reach.outOfReach();
        questions.getLast().complete(true);
        clock.advance(PERIOD);
    }

    @Test
    void kafkaIsOutOfReachOnceQuestionsOverThirtySecondsWentUnanswered() {
        answeredOnce();
        for (int i = 0; i < 4; i++) {
            assertEquals(Optional.empty(), readUnanswered(), "question " + i);
        }
        assertEquals(Optional.of(SILENT_AFTER_AN_ANSWER), reach.outOfReach(), "the first question after the answer was unanswered");
    }

    /** Nothing says a Kafka that has answered nothing yet was ever in reach: a service started while it is away is not ready. */
    @Test
    void kafkaThatHasAnsweredNothingYetIsOutOfReachOnceAQuestionWentUnanswered() {
        assertEquals(Optional.empty(), readUnanswered(), "the first question, under way");
        assertEquals(Optional.of(SILENT_SINCE_START), reach.outOfReach());
        questions.getLast().complete(true);
        assertEquals(Optional.empty(), reach.outOfReach(), "answered");
    }

    @Test
    void aTopicWithoutLeaderIsOutOfReachToo() {
        answeredOnce();
        for (int i = 0; i < 4; i++) {
            reach.outOfReach();
            questions.getLast().complete(false);
            clock.advance(PERIOD);
        }
        assertEquals(Optional.of(SILENT_AFTER_AN_ANSWER), reach.outOfReach());
    }

    @Test
    void anAnswerWithinThirtySecondsEndsTheSilence() {
        readUnanswered();
        readUnanswered();
        readUnanswered();
        reach.outOfReach();
        questions.getLast().complete(true);
        clock.advance(PERIOD);

        assertEquals(Optional.empty(), readUnanswered(), "a blip of 30 s");
        assertEquals(Optional.empty(), readUnanswered());
    }

    /** What an outage's reader is told: since when Kafka is silent, and when it was last heard, which is earlier. */
    @Test
    void anOutageNamesTheLastQuestionKafkaAnsweredAndItsEndIsAQuestionAnsweredSinceItBegan() {
        reach.outOfReach();
        questions.getLast().complete(true);
        clock.advance(PERIOD);
        for (int i = 0; i < 4; i++) {
            readUnanswered();
        }
        assertEquals(Optional.of("Kafka has left every question since 2026-03-01T10:00:10Z unanswered (whether demo.crawled_firehose"
                + " has a leader); it last answered one asked at 2026-03-01T10:00:00Z"), reach.outOfReach());
        Instant outage = clock.instant();
        questions.getLast().completeExceptionally(new TimeoutException("Timed out waiting for a node assignment"));

        assertFalse(reach.answeredSince(outage), "asked at the outage's start, unanswered");
        clock.advance(PERIOD);
        assertFalse(reach.answeredSince(outage), "asked again, no answer yet");
        questions.getLast().completeExceptionally(new UnknownTopicOrPartitionException("no such topic"));
        assertTrue(reach.answeredSince(outage), "a topic Kafka does not have is an answer");
        assertEquals(Optional.empty(), reach.outOfReach());
    }

    /** A client whose credentials Kafka refuses cannot publish: out of reach at once, saying why, until Kafka answers. */
    @Test
    void kafkaRefusingTheClientsCredentialsIsOutOfReachAtOnceSayingWhy() {
        answeredOnce();
        reach.outOfReach();
        questions.getLast().completeExceptionally(new SslAuthenticationException("Failed to process post-handshake messages",
                new SSLHandshakeException("(certificate_required) Received fatal alert: certificate_required")));
        Optional<String> refused = reach.outOfReach();
        assertTrue(refused.isPresent() && refused.get().contains("Kafka refused the client's credentials")
                && refused.get().contains("certificate_required"), String.valueOf(refused));
        clock.advance(PERIOD);
        reach.outOfReach();
        questions.getLast().complete(true);
        assertEquals(Optional.empty(), reach.outOfReach(), "answered");
    }

    @Test
    void aTopicKafkaDoesNotHaveIsAnAnswer() {
        for (int i = 0; i < 5; i++) {
            assertEquals(Optional.empty(), reach.outOfReach());
            questions.getLast().completeExceptionally(new UnknownTopicOrPartitionException("no such topic"));
            clock.advance(PERIOD);
        }
    }

    @Test
    void oneUnansweredQuestionIsNoOutageHoweverLongAgoItWasAsked() {
        answeredOnce();
        readUnanswered();
        clock.advance(Duration.ofMinutes(5));

        assertEquals(Optional.empty(), readUnanswered(), "a reader after a long pause sees one unanswered question");
        assertEquals(Optional.of(SILENT_AFTER_AN_ANSWER), reach.outOfReach(), "a second one, five minutes after the first");
    }

    @Test
    void kafkaIsAskedOnlyWhileReadAndAtMostOncePerPeriod() {
        reach.outOfReach();
        questions.getLast().complete(true);
        clock.advance(PERIOD.minusSeconds(1));
        reach.outOfReach();
        assertEquals(1, questions.size(), "within the period");

        clock.advance(Duration.ofMinutes(10));
        assertEquals(1, questions.size(), "nobody read");
        reach.outOfReach();
        assertEquals(2, questions.size());
    }

    @Test
    void noQuestionIsAskedWhileOneIsUnderWay() {
        reach.outOfReach();
        clock.advance(PERIOD.multipliedBy(3));
        reach.outOfReach();

        assertEquals(1, questions.size());
        assertTrue(reach.outOfReach().isEmpty(), "a question under way is not unanswered yet");
    }

    @Test
    void aShorterRequestTimeoutAsksEveryThirdOfItAndIsOutOfReachAfterIt() {
        reach = reachAfter(Duration.ofSeconds(6));
        reach.outOfReach();
        questions.getLast().complete(true);
        clock.advance(Duration.ofSeconds(2));
        for (int i = 0; i < 4; i++) {
            assertEquals(Optional.empty(), readUnanswered(Duration.ofSeconds(2)), "question " + i);
        }
        assertEquals(Optional.of("Kafka has left every question since 2026-03-01T10:00:02Z unanswered (whether "
                + "demo.crawled_firehose has a leader); it last answered one asked at 2026-03-01T10:00:00Z"), reach.outOfReach(),
                "questions over 6 s went unanswered");
        assertEquals(List.of(Duration.ofSeconds(2)), waits.stream().distinct().toList(), "each waits a third of 6 s");
    }

    @Test
    void aRequestTimeoutThatIsNoNumberIsRefusedWithItsName() {
        Settings settings = Settings.defaults("crawler")
                .withLauncherValues(Map.of("KAFKA_CLIENT_PROPERTIES", Map.of("request.timeout.ms", "soon")));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> TopicReach.of(new KafkaClients(settings), "demo.crawled_firehose", clock));
        assertEquals("request.timeout.ms is not a number of milliseconds: soon", refused.getMessage());
    }
}
