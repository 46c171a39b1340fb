package org.scrapycluster.common.kafka;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.scrapycluster.common.concurrent.Completions;

/**
 * Whether Kafka has a topic with a leader for one of its partitions, which is what a producer needs to publish there,
 * learnt without publishing: a service that publishes only when it has something to say (a crawler node that has run
 * out of pages, a Redis monitor without jobs) cannot otherwise tell that Kafka is gone, nor that it is back after a
 * send failed. Kafka is asked in the background, at most once a period and only while someone asks; the question is
 * the admin client's {@code DescribeTopics}, and it is unanswered after a period. Kafka is out of reach once the
 * questions it left unanswered span the producer's {@code request.timeout.ms}, after which the producer gives a request
 * up too (30 s unless {@code KAFKA_CLIENT_PROPERTIES} says otherwise); a period is a third of that, so that it takes at
 * least two questions, and with a reader every period four, and a broker's restart or a leader's election is no outage.
 * Until Kafka has answered a first question, one left unanswered puts it out of reach (docs/operations.md, "Outages"); a
 * question refused for the client's credentials puts it out of reach at once, saying why, until one is answered.
 * Thread-safe.
 */
public final class TopicReach implements AutoCloseable {

    /** Kafka's default {@code request.timeout.ms}. */
    private static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private final Duration outOfReach;
    private final Duration period;
    private final String topic;
    private final BiFunction<String, Duration, CompletionStage<Boolean>> ask;
    private final Runnable closer;
    private final Clock clock;
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile Instant askedAt = Instant.MIN;
    /** When the question last answered "takes records" was asked. */
    private volatile Instant takesRecordsAt = Instant.MIN;
    /** When the question Kafka last answered, whatever the answer, was asked. */
    private volatile Instant answeredAt = Instant.MIN;
    /** The questions unanswered since Kafka last answered one; null while it answered the last. */
    private volatile Silence silence;
    /** Why Kafka refused the last question for the client's credentials ({@link KafkaRefusals}); null when it did not. */
    private volatile String refusal;

    /**
     * @param topic      the topic asked about
     * @param ask        asks Kafka whether the topic takes records, giving up after the time it is given (a third of
     *                   {@code outOfReach}); its answer may come on any thread
     * @param closer     releases what {@code ask} holds, when this is closed
     * @param clock      when answers are given and asked again
     * @param outOfReach how long the questions Kafka leaves unanswered must span for it to be out of reach: the
     *                   producer's {@code request.timeout.ms}
     */
    public TopicReach(String topic, BiFunction<String, Duration, CompletionStage<Boolean>> ask, Runnable closer, Clock clock,
                      Duration outOfReach) {
        if (outOfReach.toMillis() < 3) {
            throw new IllegalArgumentException("out of reach after " + outOfReach.toMillis() + " ms: a period would be shorter than a millisecond");
        }
        this.outOfReach = outOfReach;
        this.period = outOfReach.dividedBy(3);
        this.topic = topic;
        this.ask = ask;
        this.closer = closer;
        this.clock = clock;
    }

    /**
     * Asks the brokers of {@code clients} with an admin client of its own, made at the first question; out of reach after
     * the {@code request.timeout.ms} of {@code clients}' producers.
     */
    public static TopicReach of(KafkaClients clients, String topic, Clock clock) {
        Duration outOfReach = requestTimeout(clients.producerProperties());
        LazyAdmin admin = new LazyAdmin(clients);
        return new TopicReach(topic, admin::takesRecords, admin::close, clock, outOfReach);
    }

    private static Duration requestTimeout(Properties producer) {
        String timeout = producer.getProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
        if (timeout == null) {
            return DEFAULT_REQUEST_TIMEOUT;
        }
        try {
            return Duration.ofMillis(Long.parseLong(timeout.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG + " is not a number of milliseconds: " + timeout);
        }
    }

    /**
     * Whether Kafka, asked at {@code since} or later, said that the topic takes records. When it was last asked longer
     * than the period ago, it is asked again; that answer is for a later call.
     */
    public boolean takesRecordsSince(Instant since) {
        if (!takesRecordsAt.isBefore(since)) {
            return true;
        }
        askWhenDue();
        return !takesRecordsAt.isBefore(since);
    }

    /**
     * Whether Kafka answered a question asked at {@code since} or later, as {@link #outOfReach} counts answers (the
     * topic has a leader, Kafka does not have it, or it refused the question for good). When it was last asked longer
     * than the period ago, it is asked again; that answer is for a later call.
     */
    public boolean answeredSince(Instant since) {
        if (!answeredAt.isBefore(since)) {
            return true;
        }
        askWhenDue();
        return !answeredAt.isBefore(since);
    }

    /**
     * Since when Kafka is out of reach, in a few words, when the questions it has not answered since it last answered one
     * span at least the out-of-reach span, from the first to the last, or, when it has answered none yet, as soon as one
     * went unanswered (nothing says it was ever in reach: a service started while Kafka is away is not ready), or Kafka's
     * refusal of the client's credentials when it refused the last question so; empty while it answers. A question is
     * unanswered when it timed out, failed for a reason that may pass, or Kafka has no leader for any of the topic's
     * partitions; a topic Kafka does not have is an answer (a producer may create it).
     * When Kafka was last asked longer than the period ago, it is asked again; that answer is for a later call.
     */
    public Optional<String> outOfReach() {
        askWhenDue();
        String refused = refusal;
        if (refused != null) {
            return Optional.of(refused);
        }
        Silence unanswered = silence;
        Instant lastAnswered = answeredAt;
        boolean answeredNone = lastAnswered.equals(Instant.MIN);
        if (unanswered == null || !answeredNone && unanswered.spans().compareTo(outOfReach) < 0) {
            return Optional.empty();
        }
        return Optional.of("Kafka has left every question since " + unanswered.from() + " unanswered (whether " + topic
                + " has a leader); " + (answeredNone ? "it has answered none yet" : "it last answered one asked at " + lastAnswered));
    }

    private void askWhenDue() {
        Instant now = clock.instant();
        if (now.isBefore(askedAt.plus(period)) || !asking.compareAndSet(false, true)) {
            return;
        }
        askedAt = now;
        CompletionStage<Boolean> answer;
        try {
            answer = ask.apply(topic, period);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((takes, failure) -> {
            if (failure == null && takes) {
                takesRecordsAt = now;
            }
            refusal = failure == null ? null : KafkaRefusals.of(failure).orElse(null);
            if (refusal == null && answered(takes, failure)) {
                answeredAt = now;
                silence = null;
            } else {
                silence = Silence.extended(silence, now);
            }
            asking.set(false);
        });
    }

    /**
     * Whether Kafka answered: it has a leader for the topic, does not have the topic, or refused the question for a reason
     * that will not pass (not authorized to describe it, say), which says nothing of whether it takes records.
     */
    private static boolean answered(Boolean takes, Throwable failure) {
        if (failure == null) {
            return takes;
        }
        Throwable cause = Completions.cause(failure);
        return cause instanceof UnknownTopicOrPartitionException || !(cause instanceof RetriableException);
    }

    @Override
    public void close() {
        closer.run();
    }

    /** The questions Kafka left unanswered, asked from {@code from} to {@code to}. */
    private record Silence(Instant from, Instant to) {

        static Silence extended(Silence silence, Instant asked) {
            return silence == null ? new Silence(asked, asked) : new Silence(silence.from(), asked);
        }

        Duration spans() {
            return Duration.between(from, to);
        }
    }

    /** An admin client made at the first question, for {@link TopicReach#of}. */
    private static final class LazyAdmin {

        private final KafkaClients clients;
        private Admin admin;
        private boolean closed;

        LazyAdmin(KafkaClients clients) {
            this.clients = clients;
        }

        CompletionStage<Boolean> takesRecords(String topic, Duration wait) {
            DescribeTopicsOptions options = new DescribeTopicsOptions().timeoutMs((int) wait.toMillis());
            return admin().describeTopics(List.of(topic), options).allTopicNames().toCompletionStage()
                    .thenApply(described -> described.get(topic).partitions().stream().anyMatch(LazyAdmin::led));
        }

        private static boolean led(TopicPartitionInfo partition) {
            return partition.leader() != null && !partition.leader().isEmpty();
        }

        private synchronized Admin admin() {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            if (admin == null) {
                admin = clients.admin();
            }
            return admin;
        }

        synchronized void close() {
            closed = true;
            if (admin != null) {
                admin.close(CLOSE_TIMEOUT);
            }
        }
    }
}
