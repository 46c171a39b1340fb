package org.scrapycluster.redismonitor.outbound;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.AbsentTopics;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.redismonitor.job.Answer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Sends answers as JSON to {@code <prefix>.outbound_firehose} and, with
 * {@code KAFKA_APPID_TOPICS}, also to {@code <prefix>.outbound_<appid>} (docs/compatibility.md §3.3),
 * and waits until Kafka has taken them: a job is deleted only once its answer is safe. When Kafka
 * does not take an answer within {@code KAFKA_SEND_TIMEOUT} the caller keeps the job for later;
 * the outage is logged once, and its end. The producer gives up a record within that time too, so an answer the
 * caller keeps is not also delivered later from the producer's buffer, and a job kept through an outage is answered
 * once, not once for every attempt. A copy on an app's topic that Kafka does not take although
 * the firehose took the answer is dropped, and that topic skipped for a while ({@link AppCopy},
 * {@link AbsentTopics}). Its health also asks Kafka whether it has the firehose ({@link TopicReach}), so that a
 * monitor with no answer to send learns of an outage too. Thread-safe.
 */
public final class OutboundPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboundPublisher.class);
    /** The longest {@link #close()} waits for Kafka to take what is still buffered. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final List<String> LOGGED_FIELDS = List.of("action", "appid", "spiderid", "uuid", "crawlid");

    private final Producer<String, byte[]> producer;
    private final Topics topics;
    private final boolean appidTopics;
    private final Duration timeout;
    private final Json json;
    private final TopicReach firehoseReach;
    private final Clock clock;
    private final AtomicReference<String> outage = new AtomicReference<>();
    private final AbsentTopics absentTopics = new AbsentTopics(Clock.systemUTC());

    /**
     * @param producer    the producer, closed with this publisher
     * @param topics      the topic names
     * @param appidTopics whether to send to the per-app topics too
     * @param timeout     how long to wait for Kafka to take an answer
     * @param firehoseReach asks Kafka whether it has the outbound firehose while the health is read; closed with this publisher
     * @param clock       the time of each answer's Kafka record: Redis's, as the cluster's hosts share it, since the broker
     *                    refuses a record stamped an hour ahead of its own (docs/operations.md, "Clocks")
     */
    public OutboundPublisher(Producer<String, byte[]> producer, Topics topics, boolean appidTopics, Duration timeout, Json json,
            TopicReach firehoseReach, Clock clock) {
        this.producer = producer;
        this.topics = topics;
        this.appidTopics = appidTopics;
        this.timeout = timeout;
        this.json = json;
        this.firehoseReach = firehoseReach;
        this.clock = clock;
    }

    /**
     * A publisher as the Redis monitor's settings say: {@code KAFKA_*}, {@code KAFKA_APPID_TOPICS},
     * {@code KAFKA_SEND_TIMEOUT}, within which the producer's own waits ({@code max.block.ms},
     * {@code delivery.timeout.ms}, {@code request.timeout.ms}) end, whatever {@code KAFKA_CLIENT_PROPERTIES} says of
     * them, so that a record {@link #publish} gave up on is given up by the producer too. Made once a broker of
     * {@code KAFKA_HOSTS} resolves ({@link KafkaClients#onceResolvable}). Its records are stamped with {@code clock}.
     */
    public static OutboundPublisher create(Settings settings, Clock clock) {
        Duration timeout = sendTimeout(settings);
        KafkaClients clients = new KafkaClients(settings).onceResolvable(LOG);
        Producer<String, byte[]> producer = new KafkaProducer<>(clients.producerProperties(timeout), new StringSerializer(),
                new ByteArraySerializer());
        Topics topics = Topics.from(settings);
        return new OutboundPublisher(producer, topics, settings.getBoolean("KAFKA_APPID_TOPICS"), timeout,
                new Json(JsonLimits.from(settings)), TopicReach.of(clients, topics.outboundFirehose(), Clock.systemUTC()), clock);
    }

    /**
     * Refuses the settings a publisher could not be made with, as {@link #create} would, without making one.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        sendTimeout(settings); // which checks the Kafka clients' settings first (KafkaClients.sendTimeout)
        Topics.from(settings);
        JsonLimits.from(settings);
    }

    private static Duration sendTimeout(Settings settings) {
        Duration timeout = settings.getSeconds("KAFKA_SEND_TIMEOUT");
        if (timeout.toMillis() < 1) {
            throw settings.invalid("KAFKA_SEND_TIMEOUT", "must be more than 0");
        }
        return new KafkaClients(settings).sendTimeout("KAFKA_SEND_TIMEOUT");
    }

    /**
     * Sends {@code answers} and waits until Kafka has taken every one, then logs each one's sent message. The wait
     * goes on through an interrupt (a stop's), which is kept for the caller: it ends within the timeout anyway, and
     * the caller must know which answers Kafka took, since the producer's close delivers what is still buffered.
     *
     * @throws OutboundUnavailableException when Kafka did not take them in time; it names those Kafka took
     *                                      ({@link OutboundUnavailableException#taken})
     * @throws KafkaException               when Kafka refused one for good (too large, bad topic, ...)
     */
    public void publish(List<Answer> answers) throws OutboundUnavailableException {
        if (answers.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Future<RecordMetadata>> firehose = new ArrayList<>(answers.size());
        long now = clock.millis();
        try {
            List<byte[]> values = new ArrayList<>(answers.size());
            for (Answer answer : answers) {
                values.add(json.writeBytes(answer.fields()));
                firehose.add(producer.send(new ProducerRecord<>(topics.outboundFirehose(), null, now, null, values.getLast())));
            }
            // after the firehose's: a send to a topic Kafka does not have blocks for up to max.block.ms
            List<AppCopy> appCopies = new ArrayList<>();
            for (int i = 0; i < answers.size(); i++) {
                byte[] value = values.get(i);
                appTopic(answers.get(i).appid()).ifPresent(topic ->
                        appCopies.add(new AppCopy(topic, producer.send(new ProducerRecord<>(topic, null, now, null, value)))));
            }
            awaitAll(firehose, deadline);
            // the copies were sent when the firehose's records were: the producer settles each within the timeout of its send
            long copiesDeadline = System.nanoTime() + timeout.toNanos();
            for (AppCopy copy : appCopies) {
                copy.dropped(copiesDeadline).ifPresent(cause -> absentTopics.absent(copy.topic(), cause));
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RetriableException retriable) {
                throw unavailable(retriable, firehose);
            }
            throw e.getCause() instanceof KafkaException refused ? refused : new KafkaException(e.getCause());
        } catch (RetriableException | TimeoutException e) {
            throw unavailable(e, firehose);
        } catch (InterruptException e) {
            throw new OutboundUnavailableException("interrupted while handing an answer to Kafka", e, taken(firehose));
        }
        if (outage.getAndSet(null) != null) {
            LOG.info("Kafka takes answers again");
        }
        answers.forEach(OutboundPublisher::logSent);
    }

    /**
     * Waits for every record until {@code deadline}, each of them even after one failed, so that which Kafka took is
     * known; then throws the first failure.
     */
    private static void awaitAll(List<Future<RecordMetadata>> records, long deadline) throws ExecutionException, TimeoutException {
        Exception first = null;
        for (Future<RecordMetadata> record : records) {
            try {
                awaitThroughInterrupts(record, deadline);
            } catch (ExecutionException | TimeoutException e) {
                first = first == null ? e : first;
            }
        }
        if (first instanceof ExecutionException failed) {
            throw failed;
        }
        if (first instanceof TimeoutException late) {
            throw late;
        }
    }

    /** Waits for {@code pending} until {@code deadline}; an interrupt meanwhile is kept for after the wait. */
    private static <T> T awaitThroughInterrupts(Future<T> pending, long deadline) throws ExecutionException, TimeoutException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The positions of the records Kafka has taken. */
    private static Set<Integer> taken(List<Future<RecordMetadata>> records) {
        Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).state() == Future.State.SUCCESS) {
                taken.add(i);
            }
        }
        return taken;
    }

    /**
     * DOWN since the last answer Kafka did not take, until one goes through, and while Kafka leaves the question
     * whether it has the firehose unanswered for the producer's {@code request.timeout.ms} (30 s) and more; UP otherwise.
     */
    public Health health() {
        String down = outage.get();
        if (down != null) {
            return Health.down(down);
        }
        return firehoseReach.outOfReach().map(Health::down).orElseGet(Health::up);
    }

    /** Sends what is still buffered (for up to ten seconds) and closes the producer and the question to Kafka. */
    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
        firehoseReach.close();
    }

    /**
     * The app's own topic for its answers, when {@code KAFKA_APPID_TOPICS} is on, the appid can name a topic (within
     * Kafka's 249 characters under the prefix), and Kafka was not found without that topic in the last minute.
     */
    private Optional<String> appTopic(String appid) {
        if (!appidTopics) {
            return Optional.empty();
        }
        Optional<String> topic = topics.outboundIfLegal(appid);
        if (topic.isEmpty()) {
            LOG.warn("Answer for appid '{}' sent to {} only: the appid cannot be part of a topic name", appid, topics.outboundFirehose());
            return Optional.empty();
        }
        return absentTopics.skipped(topic.get()) ? Optional.empty() : topic;
    }

    /**
     * An answer's copy on its app's topic. It is awaited once the firehose has taken every answer, so Kafka is there:
     * a copy Kafka still does not take is one for a topic it neither has nor creates (automatic topic creation off),
     * or one this client may not write to, or that holds smaller messages than the firehose: no retry mends it. That
     * copy is dropped, as the original's producer dropped it, rather than keeping the job and sending its answers to
     * the firehose again and again (or failing a job whose answer the firehose has).
     */
    private record AppCopy(String topic, Future<RecordMetadata> sent) {

        /** Why Kafka did not take the copy by {@code deadline} ({@link System#nanoTime}); empty when it took it. */
        Optional<Throwable> dropped(long deadline) {
            try {
                awaitThroughInterrupts(sent, deadline);
                return Optional.empty();
            } catch (TimeoutException e) {
                return Optional.of(e);
            } catch (ExecutionException e) {
                return Optional.of(e.getCause());
            }
        }
    }

    private OutboundUnavailableException unavailable(Throwable cause, List<Future<RecordMetadata>> firehose) {
        String message = "Kafka did not take an answer within " + timeout.toMillis() + " ms: " + cause;
        if (outage.getAndSet(message) == null) {
            LOG.warn("{}; jobs stay in Redis and are answered once Kafka is back", message);
        }
        return new OutboundUnavailableException(message, cause, taken(firehose));
    }

    private static void logSent(Answer answer) {
        LoggingEventBuilder event = LOG.atInfo();
        for (String field : LOGGED_FIELDS) {
            Object value = answer.fields().get(field);
            if (value != null) {
                event = event.addKeyValue(field, value);
            }
        }
        event.addKeyValue("success", true).log(answer.sentMessage());
    }
}
