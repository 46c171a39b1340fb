package org.scrapycluster.rest.link;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.KafkaRefusals;
import org.scrapycluster.common.kafka.PollingLoop;
import org.scrapycluster.common.kafka.SendTimeouts;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.FatalExit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's producer of fed requests and its reader of the outbound topic (docs/compatibility.md §6.1's Kafka
 * connector and consumer loop), on one thread of its own. Both clients are created in the
 * background with back-off. The reader is in a consumer group of its own, so that every gateway
 * sees every answer; it starts at the end of the topic and commits nothing. Each message is handed
 * to the listener as soon as a poll returns it. The reader remembers how far it has read each
 * partition, and goes on from there when the group hands it a partition again (after a broker
 * restart, say), so that an answer written while it rejoined is not skipped; a partition added to the
 * topic while it reads is read from its beginning.
 *
 * <p>Kafka is reachable while the reader holds a connection to the cluster and Kafka answers the questions about the
 * topic ({@link TopicReach}: a broker that hangs keeps its connections and answers nothing); after it was not, once
 * Kafka answered a question asked since. Requests can be sent while it is, and {@link #send} refuses at once when it is
 * not. Answers are read once the reader also has its
 * partitions, with their positions ({@link #readingAnswers}): a request that waits for its answer
 * needs that too, a crawl request does not, so that a gateway whose outbound topic has no partition
 * yet (a broker that does not create topics on first use) still feeds crawls. A failure that ends the loop (a bug, the
 * JVM out of memory, a class the jar lacks) is told to the gateway, which ends the process (docs/operations.md,
 * "Nothing lost").
 */
public final class KafkaLink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaLink.class);
    /** How long the reader may wait for its first partition, connected, before that is said at WARN. */
    static final Duration PARTITIONS_GRACE = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * What the link needs to know.
     *
     * @param clients     the gateway's Kafka client settings
     * @param topic       the topic answers are read from ({@code <prefix>.outbound_firehose})
     * @param group       the reader's consumer group, unique to this gateway
     * @param pollTimeout the longest wait of one poll
     * @param sendTimeout how long a send waits for the broker's acknowledgement
     * @param joinTimeout how long closing waits for the thread
     */
    public record Config(KafkaClients clients, String topic, String group, Duration pollTimeout, Duration sendTimeout,
            Duration joinTimeout) {
    }

    private final Config config;
    private final Consumer<byte[]> listener;
    private final Consumer<Throwable> ended;
    private final TopicReach reach;
    private final Clock clock;
    private volatile Producer<String, byte[]> producer;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private boolean positionsPending;
    /** Whether the positions of a first assignment of partitions were all resolved: one assigned later is new. */
    private boolean positionsResolved;
    private final Map<TopicPartition, Long> readUpTo = new HashMap<>();
    private volatile boolean reachable;
    private volatile boolean reading;
    private final PollingLoop loop = new PollingLoop();
    private Metric connections;
    private Thread worker;
    /** Why Kafka, connected, is taken for away: it has left the questions about the topic unanswered; null while not. */
    private volatile String silence;
    /** When Kafka was last found unreachable; null while it is reachable. Kept on the link's thread. */
    private Instant lostAt;
    /** Whether answers were ever read: a reader connected without a partition before that is joining its group. */
    private boolean everRead;
    /** Since when the reader, connected, has waited for its first partition, until that is said; null otherwise. */
    private Instant awaitingPartitionsSince;

    /**
     * @param listener gets the value of every message of the topic, on the link's thread; a message it fails on is
     *                 logged and skipped, unless it failed with an error the gateway cannot go on from
     *                 ({@link FatalExit#endsTheService})
     * @param ended    told of the failure that ended the link's loop (a bug, the JVM out of memory, a class the jar
     *                 lacks), once its clients are closed; the gateway ends the process on it
     */
    public KafkaLink(Config config, Consumer<byte[]> listener, Consumer<Throwable> ended) {
        this(config, listener, ended, TopicReach.of(config.clients(), config.topic(), Clock.systemUTC()), Clock.systemUTC());
    }

    /**
     * A link that also asks Kafka about the topic through {@code reach}, closed with the link: a broker that hangs (a
     * frozen process, a full disk) keeps the connections open and answers nothing.
     *
     * @param clock when an outage begins, on {@code reach}'s clock
     */
    KafkaLink(Config config, Consumer<byte[]> listener, Consumer<Throwable> ended, TopicReach reach, Clock clock) {
        this.config = config;
        this.listener = listener;
        this.ended = ended;
        this.reach = reach;
        this.clock = clock;
    }

    /** Starts the link's thread. */
    public synchronized void start() {
        worker = Thread.ofPlatform().name("rest-kafka").start(this::run);
    }

    /** The liveness check of the link's loop: up while its thread runs. */
    public synchronized Health liveness() {
        return worker == null ? Health.down("not started") : Health.ofLoop(worker);
    }

    /** Whether Kafka can be reached now, so that requests can be sent. */
    public boolean reachable() {
        return reachable;
    }

    /**
     * Whether answers are being read now: Kafka can be reached and the reader has partitions of the
     * topic (what {@code kafka_connected} says).
     */
    public boolean readingAnswers() {
        return reading;
    }

    /** The health check {@code kafka}: up while answers are read. */
    public Health health() {
        return reading ? Health.up(state()) : Health.down(state());
    }

    /** What the link can do now, in words. */
    public String state() {
        if (reading) {
            return "reading " + config.topic() + " in group " + config.group();
        }
        if (reachable) {
            return "connected, but no partition of " + config.topic() + " is assigned yet: crawl requests are sent,"
                    + " requests that wait for an answer are refused";
        }
        String silent = silence;
        return producer == null ? "connecting" : silent != null ? silent : "no connection to Kafka";
    }

    /**
     * Sends {@code value} to {@code topic} and waits for the broker's acknowledgement: the whole
     * send, the producer's wait for the topic's metadata included, takes at most the send timeout
     * ({@link SendTimeouts}).
     *
     * @throws KafkaUnavailableException when Kafka cannot be reached, or did not take the record in time
     * @throws OversizedRecordException when the producer or the broker refused the record as too large
     * @throws InterruptedException when the gateway is closing
     */
    public void send(String topic, byte[] value) throws KafkaUnavailableException, OversizedRecordException, InterruptedException {
        Producer<String, byte[]> sending = producer;
        if (sending == null || !reachable) {
            throw new KafkaUnavailableException("not connected to Kafka", null);
        }
        long deadline = System.nanoTime() + config.sendTimeout().toNanos();
        try {
            Future<RecordMetadata> sent = sending.send(new ProducerRecord<>(topic, value));
            sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException tooLarge) {
                throw new OversizedRecordException(tooLarge.getMessage(), tooLarge);
            }
            throw new KafkaUnavailableException("Kafka did not take the record: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not acknowledge the record within " + config.sendTimeout(), e);
        } catch (KafkaException e) {
            throw new KafkaUnavailableException("Kafka refused the record: " + e, e);
        }
    }

    private void run() {
        Throwable failure = null;
        try {
            producer = loop.createClient("producer", this::newProducer, LOG);
            consumer = loop.createClient("consumer", this::newConsumer, LOG);
            connections = connectionCount(consumer);
            consumer.subscribe(List.of(config.topic()), new Positions());
            LOG.atInfo().addKeyValue("topic", config.topic()).addKeyValue("group", config.group())
                    .log("Reading answers from " + config.topic());
            read();
        } catch (WakeupException | InterruptException | PollingLoop.Stopping e) {
            LOG.debug("The Kafka link stops");
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            reachable = false;
            reading = false;
            loop.release(this::release);
        }
        if (failure != null) {
            ended.accept(failure);
        }
    }

    private void read() {
        Backoff backoff = Backoff.standard();
        KafkaRefusals refusals = new KafkaRefusals(LOG, "The gateway's reader of answers");
        while (!loop.stopping()) {
            try {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(config.pollTimeout())) {
                    readUpTo.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                    take(record);
                }
                refusals.taken();
                observe();
                backoff.reset();
            } catch (WakeupException | InterruptException e) {
                throw e;
            } catch (KafkaException e) {
                reachable = false;
                reading = false;
                if (!refusals.said(e)) {
                    LOG.atWarn().addKeyValue("error", String.valueOf(e)).log("Reading answers from Kafka failed; retrying");
                }
                loop.pause(backoff.nextDelay());
            }
        }
    }

    /**
     * Hands one record to the listener; one that fails on it is logged, and the next record is read, but for an error
     * the gateway cannot go on from, which ends the loop.
     */
    private void take(ConsumerRecord<byte[], byte[]> record) {
        try {
            listener.accept(record.value());
        } catch (RuntimeException | Error e) {
            if (FatalExit.endsTheService(e)) {
                throw e;
            }
            LOG.atError().addKeyValue("topic", record.topic()).addKeyValue("partition", record.partition())
                    .addKeyValue("offset", record.offset()).setCause(e).log("An answer could not be handled; it is skipped");
        }
    }

    private void observe() {
        if (positionsPending) {
            for (TopicPartition partition : consumer.assignment()) {
                readUpTo.putIfAbsent(partition, consumer.position(partition, config.pollTimeout()));
            }
            positionsPending = false;
            positionsResolved = !readUpTo.isEmpty();
        }
        boolean connected = connections != null && ((Number) connections.metricValue()).doubleValue() > 0;
        Optional<String> silent = connected ? reach.outOfReach() : Optional.empty();
        silence = silent.orElse(null);
        // after an outage, a connection is no return until Kafka answers: one being made to a broker still away is not
        boolean nowReachable = connected && silent.isEmpty() && (lostAt == null || reach.answeredSince(lostAt));
        boolean nowReading = nowReachable && !consumer.assignment().isEmpty();
        warnIfStillWithoutPartitions(nowReachable, nowReading);
        if (nowReachable == reachable && nowReading == reading) {
            return;
        }
        if (nowReachable) {
            lostAt = null;
        } else if (reachable) {
            lostAt = clock.instant();
        }
        reachable = nowReachable;
        reading = nowReading;
        if (nowReading) {
            everRead = true;
            LOG.info("Kafka connected: reading answers from {}", config.topic());
        } else if (nowReachable && !everRead) {
            awaitingPartitionsSince = clock.instant();
            LOG.info("Kafka connected: waiting for a partition of {} to be assigned", config.topic());
        } else if (nowReachable) {
            warnWithoutPartitions();
        } else {
            LOG.warn("Kafka unavailable: {}, feeding refused until it is back", silent.orElse("no connection"));
        }
    }

    /**
     * Says at WARN, once, that the reader has waited {@link #PARTITIONS_GRACE} for its first partition: joining the group
     * takes a few seconds, while a topic that does not exist (on a broker that creates none) keeps it waiting for good.
     */
    private void warnIfStillWithoutPartitions(boolean nowReachable, boolean nowReading) {
        if (!nowReachable || nowReading) {
            awaitingPartitionsSince = null;
        } else if (awaitingPartitionsSince != null && !clock.instant().isBefore(awaitingPartitionsSince.plus(PARTITIONS_GRACE))) {
            awaitingPartitionsSince = null;
            warnWithoutPartitions();
        }
    }

    private void warnWithoutPartitions() {
        LOG.warn("Kafka connected, but no partition of {} is assigned: crawl requests are fed, requests that wait"
                + " for an answer are refused until there is one", config.topic());
    }

    private Producer<String, byte[]> newProducer() {
        return new KafkaProducer<>(config.clients().producerProperties(config.sendTimeout()), new StringSerializer(),
                new ByteArraySerializer());
    }

    private KafkaConsumer<byte[], byte[]> newConsumer() {
        Properties properties = config.clients().consumerProperties(config.group());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static Metric connectionCount(KafkaConsumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("connection-count") && e.getKey().group().equals("consumer-metrics"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
    }

    private void release() {
        reach.close();
        KafkaConsumer<byte[], byte[]> reading = consumer;
        if (reading != null) {
            try {
                reading.close(CloseOptions.timeout(CLOSE_TIMEOUT));
            } catch (RuntimeException e) {
                LOG.warn("Could not close the Kafka consumer cleanly: {}", e.toString());
            }
        }
        Producer<String, byte[]> sending = producer;
        if (sending != null) {
            try {
                sending.close(CLOSE_TIMEOUT);
            } catch (RuntimeException e) {
                LOG.warn("Could not close the Kafka producer cleanly: {}", e.toString());
            }
        }
    }

    /** Stops reading and closes both clients, waiting up to the join timeout. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            if (!loop.requestStop()) {
                return;
            }
            running = worker;
        }
        if (running == null) {
            return;
        }
        if (!loop.awaitEnd(running, consumer, config.joinTimeout())) {
            LOG.warn("The Kafka link did not stop within {}", config.joinTimeout());
        }
    }

    /**
     * Puts a partition handed back to the reader where it had read up to, and has the positions
     * of partitions new to it resolved before Kafka counts as connected, so that an answer produced
     * after the gateway says it is connected is always read: the end of each of those it was first
     * given, the beginning of one added to the topic since (all of whose answers came after the reader
     * started, and some before it was told of the partition, up to {@code metadata.max.age.ms} later).
     */
    private final class Positions implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition partition : partitions) {
                Long position = readUpTo.get(partition);
                if (position != null) {
                    consumer.seek(partition, position);
                    continue;
                }
                if (positionsResolved) {
                    consumer.seekToBeginning(List.of(partition));
                }
                positionsPending = true;
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // Nothing to commit: the gateway reads from the end at each start.
        }
    }
}
