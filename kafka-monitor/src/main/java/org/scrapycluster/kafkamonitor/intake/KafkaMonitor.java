package org.scrapycluster.kafkamonitor.intake;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.KafkaRefusals;
import org.scrapycluster.common.kafka.PollingLoop;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisClock;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.Heartbeat;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.dispatch.RankedPlugin;
import org.scrapycluster.kafkamonitor.rejection.Rejection;
import org.scrapycluster.kafkamonitor.rejection.RejectionMessages;
import org.scrapycluster.kafkamonitor.stats.IntakeMetrics;
import org.scrapycluster.kafkamonitor.stats.IntakeStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka monitor (docs/compatibility.md §2.1): consumes {@code KAFKA_INCOMING_TOPIC} in the consumer
 * group {@code KAFKA_GROUP}, sharing its partitions with every other instance of the group, and
 * works in batches of up to {@code KAFKA_CONSUMER_MAX_POLL_RECORDS} records:
 *
 * <ol>
 *   <li>each record is read, validated and handed to its plugin ({@link RequestIntake});</li>
 *   <li>the Redis writes of all accepted requests are sent in one pipeline and confirmed ({@link BatchFiling});</li>
 *   <li>every rejected record is published to the rejected topic, with an error answer to its
 *       sender when it says who that is ({@link RejectionMessages});</li>
 *   <li>only then are the batch's offsets committed, synchronously. Automatic commits are always
 *       off, whatever {@code KAFKA_CONSUMER_AUTO_COMMIT_ENABLE} says, so a request is never lost:
 *       a monitor that dies before the commit leaves its batch to be taken again (at least once;
 *       every Redis write can be applied twice).</li>
 * </ol>
 *
 * <p>While Redis or Kafka is away the monitor keeps its batch, says so once in the log, and tries
 * again with {@link Backoff}; its partitions are paused meanwhile and it keeps polling, so that it
 * stays in its group. Neither has to be reachable at start. Health checks {@code redis} and
 * {@code kafka} say whether each answers. Statistics go to Redis ({@link IntakeStats}), with a
 * heartbeat at {@code stats:kafka-monitor:self:<host>:<uuid12>}, and meters to Micrometer
 * ({@link IntakeMetrics}, {@link IncomingLag}).
 */
public final class KafkaMonitor implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaMonitor.class);
    private static final String NAME = "kafka-monitor";
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration MAX_HEARTBEAT_PERIOD = Duration.ofSeconds(5);
    /** How long a batch that found a rejection topic missing waits for Kafka to list the topics it has. */
    private static final Duration TOPICS_LISTED_WITHIN = Duration.ofSeconds(10);

    private final ServiceContext context;
    private final Settings settings;
    private final BatchListener listener;
    private final PluginSet plugins;
    private final RequestIntake intake;
    private final RejectionMessages rejections;
    private final IntakeMetrics metrics;
    private final KafkaClients clients;
    private final String topic;
    private final String group;
    private final KafkaWatch kafka;
    private final IncomingLag lag;
    private final IntakeOptions options;
    private final OutageReporter redisOutage = new OutageReporter(LOG, "Writing requests to Redis");
    /**
     * Redis's time, which every host shares, for the requests' {@code ts}, the statistics' buckets (one host's clock ahead
     * would trim the others' as old) and the rejections' records (the broker refuses one stamped an hour ahead of its own).
     */
    private final RedisClock redisClock;

    private final PollingLoop loop = new PollingLoop();
    private volatile Thread worker;
    private volatile Consumer<byte[], byte[]> consumer;
    private volatile RedisConnection redis;
    private volatile boolean inGroup;
    private KafkaClientMetrics consumerMetrics;

    private BatchFiling filing;
    private IntakeStats stats;
    private Heartbeat heartbeat;
    private Producer<String, byte[]> producer;
    private RejectionPublisher publisher;
    private Batch current;
    private boolean holding;

    /** A monitor with the settings, meters and health checks of {@code context}. */
    public KafkaMonitor(ServiceContext context) {
        this(context, BatchListener.NONE);
    }

    /**
     * A monitor that also tells {@code listener} about each batch.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when a setting cannot be used,
     *         for example a {@code PLUGINS} entry naming an unknown class
     */
    public KafkaMonitor(ServiceContext context, BatchListener listener) {
        this.context = context;
        this.settings = context.settings();
        this.listener = listener;
        this.plugins = PluginSet.load(settings);
        this.options = IntakeOptions.from(settings);
        Json json = new Json(options.json());
        this.redisClock = new RedisClock(context.clock());
        this.intake = new RequestIntake(json, plugins, redisClock);
        this.rejections = new RejectionMessages(settings, json, redisClock, context.meters());
        this.metrics = new IntakeMetrics(context.meters());
        this.clients = new KafkaClients(settings);
        this.topic = options.topics().incoming();
        this.group = settings.getString("KAFKA_GROUP");
        this.kafka = new KafkaWatch(KafkaClients.bootstrapServers(settings), "consuming " + topic + " in group " + group,
                options.unavailableAfter(), TopicReach.of(clients, topic, Clock.systemUTC()), Clock.systemUTC());
        this.lag = new IncomingLag(context.meters());
    }

    /**
     * Refuses the settings a monitor could not be built with, as its constructor would: its plugins loaded and set up,
     * every value in range; connects to nothing.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        PluginSet.load(settings);
        IntakeOptions.from(settings);
        KafkaClients.check(settings);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start() {
        if (worker != null) {
            throw new IllegalStateException("the Kafka monitor is already started");
        }
        context.health().register("redis", this::redisHealth);
        context.health().register("kafka", kafka::health);
        context.health().register("group", HealthRegistry.Kind.READINESS, () -> inGroup
                ? Health.up("member of " + group) : Health.down("not yet a member of consumer group " + group));
        worker = Thread.ofPlatform().name(NAME).start(this::run);
        Thread loop = worker;
        context.health().register("loop", HealthRegistry.Kind.LIVENESS, () -> Health.ofLoop(loop));
    }

    @Override
    public synchronized void close() {
        if (!loop.requestStop() || worker == null) {
            return;
        }
        if (!loop.awaitEnd(worker, consumer, CLOSE_TIMEOUT)) {
            LOG.warn("The Kafka monitor did not stop within {}", CLOSE_TIMEOUT);
        }
    }

    /**
     * The consumer's thread: connects, then {@link #consume()}s until closed. An {@link Error} it cannot go on from
     * (out of memory, a stack overflow of its own code, a class the jar lacks) is logged and ends the process
     * ({@link FatalExit}), rather than leaving it up with a dead consumer; the batch in hand is not committed, and is
     * taken again.
     */
    private void run() {
        Error fatal = null;
        try {
            redis = connectRedis();
            redisClock.follow(redis);
            stats = new IntakeStats(options.stats(), redis, context.node().uuid12(), redisClock,
                    plugins.plugins().stream().map(RankedPlugin::name).distinct().toList());
            heartbeat = new Heartbeat(redis, Keyspace.HEARTBEAT.fill("kafka-monitor", context.node().toString()), options.heartbeatTtl(),
                    min(options.heartbeatTtl().dividedBy(3), MAX_HEARTBEAT_PERIOD), context.clock());
            heartbeat.start();
            filing = new BatchFiling(new RedisBatchWriter(redis, options.fifo()), metrics, redisOutage, this::hold);
            producer = loop.createClient("producer", clients::bytesProducer, LOG);
            consumer = loop.createClient("consumer", this::newConsumer, LOG);
            kafka.watch(consumer);
            consumerMetrics = new KafkaClientMetrics(consumer);
            consumerMetrics.bindTo(context.meters());
            publisher = new RejectionPublisher(producer, metrics, kafka::answers, () -> consumer.listTopics(TOPICS_LISTED_WITHIN).keySet(),
                    context.clock());
            consumer.subscribe(List.of(topic), new Rebalance());
            LOG.atInfo().addKeyValue("topic", topic).addKeyValue("group", group)
                    .addKeyValue("plugins", plugins.plugins().stream().map(RankedPlugin::toString).toList())
                    .log("Kafka Monitor consuming " + topic + " in group " + group);
            consume();
        } catch (WakeupException | InterruptException | PollingLoop.Stopping e) {
            LOG.debug("The Kafka monitor stops");
        } catch (RuntimeException e) {
            LOG.error("The Kafka monitor could not start", e);
        } catch (Error e) {
            fatal = e;
            FatalExit.log(LOG, "The Kafka monitor", e, "and the batch in hand, not committed, is taken again");
        } finally {
            try {
                loop.release(this::release);
            } finally {
                if (fatal != null) {
                    FatalExit.exitProcess();
                }
            }
        }
    }

    /**
     * Polls and handles batches until closed. A failure that is not an outage (an offset out of
     * range, a broken consumer, a bug) is logged and the loop goes on after a back-off; the records
     * of a batch that failed half-way are taken again. Kafka refusing the consumer's credentials is said once
     * ({@link KafkaRefusals}). An {@link Error} goes on up, to end the process ({@link #run()}).
     */
    private void consume() {
        Backoff backoff = Backoff.standard();
        KafkaRefusals refusals = new KafkaRefusals(LOG, "The Kafka monitor's consumer");
        while (!loop.stopping()) {
            try {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(options.pollTimeout());
                refusals.taken();
                kafka.observe();
                lag.fetched(consumer);
                if (records.isEmpty()) {
                    loop.pause(options.sleepTime());
                } else {
                    loop.runToEnd(() -> handle(records)); // a stop lets a batch that goes well finish and commit
                }
                backoff.reset();
            } catch (InvalidOffsetException e) {
                LOG.atError().addKeyValue("partitions", String.valueOf(e.partitions())).log("Kafka offset out of range error");
                consumer.seekToEnd(e.partitions());
            } catch (WakeupException | InterruptException | PollingLoop.Stopping e) {
                throw e;
            } catch (RuntimeException e) {
                if (!refusals.said(e)) {
                    LOG.error("The Kafka monitor failed on a batch; its records will be taken again", e);
                }
                loop.pause(backoff.nextDelay());
            }
        }
    }

    /** One batch: decide, write, publish, commit; the batch is taken again from its first record if any step fails. */
    private void handle(ConsumerRecords<byte[], byte[]> records) {
        long polled = System.nanoTime();
        boolean done = false;
        try {
            List<Batch.Entry> entries = new ArrayList<>(records.count());
            RedisBatchWriter.Writes writes = filing.start();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                Disposition disposition = intake.take(record.value());
                entries.add(new Batch.Entry(new TopicPartition(record.topic(), record.partition()), record.offset(), record.value(),
                        disposition));
                if (disposition instanceof Disposition.Accepted accepted) {
                    writes.add(accepted.handling());
                }
            }
            metrics.consumed(records.count());
            current = new Batch(entries, polled);
            filing.file(current, writes);
            List<Batch.Entry> settled = current.entries();
            BatchSummary summary = summary(settled, polled);
            listener.written(summary);
            reportRejections(settled);
            commit(current);
            count(current.entries());
            metrics.batches().record(Duration.ofNanos(System.nanoTime() - polled));
            listener.committed(summary);
            done = true;
        } finally {
            if (!done) {
                rewind(records);
            }
            current = null;
            holding = false;
            consumer.resume(consumer.paused());
        }
    }

    /**
     * Counts the records of a committed batch in the original's statistics ({@code total}, {@code fail}, each plugin's):
     * once, whatever took the batch again before (a failure, a restart), and not those of partitions another consumer
     * took meanwhile, which it counts.
     */
    private void count(List<Batch.Entry> committed) {
        stats.total(committed.size());
        for (Batch.Entry entry : committed) {
            switch (entry.disposition()) {
                case Disposition.Accepted accepted -> stats.plugin(accepted.plugin().name());
                case Disposition.Rejected rejected -> {
                    stats.fail();
                    rejected.matched().ifPresent(plugin -> stats.plugin(plugin.name()));
                }
            }
        }
    }

    /** Counts and logs the batch's rejected records, and publishes what is to be published about them. */
    private void reportRejections(List<Batch.Entry> entries) {
        List<ProducerRecord<String, byte[]>> messages = new ArrayList<>();
        Map<ProducerRecord<String, byte[]>, TopicPartition> sources = new IdentityHashMap<>();
        for (Batch.Entry entry : entries) {
            if (entry.disposition() instanceof Disposition.Rejected rejected) {
                Rejection rejection = rejected.rejection();
                metrics.rejected(rejection.kind());
                IntakeLog.rejected(entry, rejection, rejections.logged(entry.value(), rejection));
                for (ProducerRecord<String, byte[]> message : messagesAbout(entry, rejection)) {
                    messages.add(message);
                    sources.put(message, entry.partition());
                }
            }
        }
        // a partition lost while Kafka is waited for goes with its records: their next owner reports them
        publisher.publish(messages, this::hold, message -> current.owns(sources.get(message)));
    }

    /**
     * What to publish about one rejected record; nothing, with an ERROR, when that cannot be written: a failure here
     * would fail the batch again each time it is taken, and re-run the Redis writes of the records before it.
     */
    private List<ProducerRecord<String, byte[]>> messagesAbout(Batch.Entry entry, Rejection rejection) {
        try {
            return rejections.of(entry.partition().topic(), entry.partition().partition(), entry.offset(), entry.value(), rejection);
        } catch (RuntimeException e) {
            LOG.atError().setCause(e).addKeyValue("topic", entry.partition().topic()).addKeyValue("partition", entry.partition().partition())
                    .addKeyValue("offset", entry.offset()).log("The messages about a rejected record could not be written; it is only logged");
            return List.of();
        }
    }

    /** Commits the batch's offsets until Kafka takes them, or the batch's partitions went to another consumer. */
    private void commit(Batch batch) {
        Backoff backoff = Backoff.standard();
        while (!batch.isEmpty()) {
            try {
                consumer.commitSync(batch.offsets());
                return;
            } catch (RebalanceInProgressException | CommitFailedException e) {
                LOG.info("The consumer group is rebalancing; committing the batch once it has settled");
                hold(options.pollTimeout());
            } catch (KafkaException e) {
                if (e instanceof WakeupException || e instanceof InterruptException) {
                    throw e;
                }
                metrics.kafkaRetry();
                LOG.atWarn().addKeyValue("error", String.valueOf(e)).log("Committing offsets failed, Kafka unavailable; retrying");
                hold(backoff.nextDelay());
            }
        }
    }

    /**
     * Waits {@code delay} without taking new records: the partitions are paused, and polling
     * keeps the consumer in its group (a rebalance meanwhile drops the records of lost partitions
     * from the current batch).
     */
    private void hold(Duration delay) {
        loop.check();
        // a stop meanwhile gives the batch up: the next owner takes it again; one after lets the batch finish
        loop.waitsOut(() -> {
            holding = true;
            consumer.pause(consumer.assignment());
            ConsumerRecords<byte[], byte[]> unexpected = consumer.poll(delay);
            for (TopicPartition partition : unexpected.partitions()) {
                consumer.seek(partition, unexpected.records(partition).getFirst().offset());
            }
            kafka.observe();
            lag.paused(consumer);
        });
        loop.check();
    }

    /** Moves the consumer back to the first of {@code records} in each partition it still owns, to take them again. */
    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        if (loop.stopping()) {
            return;
        }
        for (TopicPartition partition : records.partitions()) {
            if (consumer.assignment().contains(partition)) {
                consumer.seek(partition, records.records(partition).getFirst().offset());
            }
        }
    }

    private RedisConnection connectRedis() {
        return RedisConnection.openRetrying(options.redis(), context.meters(), LOG, loop::stopping).orElseThrow(PollingLoop.Stopping::new);
    }

    private Consumer<byte[], byte[]> newConsumer() {
        Properties properties = clients.consumerProperties(group);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(options.maxPollRecords()));
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private Health redisHealth() {
        RedisConnection connection = redis;
        if (connection == null) {
            return Health.down("connecting to " + options.redis());
        }
        if (!connection.answers()) {
            return Health.down("Redis at " + connection.endpoint() + " does not answer");
        }
        Optional<String> refused = redisOutage.lastFailure();
        if (refused.isPresent()) {
            // it answers, but not to the batch's writes: at its maxmemory, a read-only replica, an ACL...
            return Health.down("Redis at " + connection.endpoint() + " does not take the requests' writes: " + refused.get());
        }
        return Health.up(connection.endpoint().toString());
    }

    private void release() {
        closeQuietly("consumer meters", consumerMetrics);
        closeQuietly("consumer", consumer == null ? null : () -> consumer.close(CloseOptions.timeout(Duration.ofSeconds(5))));
        closeQuietly("producer", producer == null ? null : () -> producer.close(PRODUCER_CLOSE_TIMEOUT));
        closeQuietly("heartbeat", heartbeat);
        closeQuietly("statistics", stats);
        closeQuietly("clock", redisClock);
        closeQuietly("Kafka watch", kafka);
        closeQuietly("Redis connection", redis);
        LOG.info("Closing Kafka Monitor");
    }

    private static void closeQuietly(String what, AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("Could not close the {} cleanly: {}", what, e.toString());
        }
    }

    private static BatchSummary summary(List<Batch.Entry> entries, long polled) {
        int accepted = 0;
        for (Batch.Entry entry : entries) {
            if (entry.disposition() instanceof Disposition.Accepted) {
                accepted++;
            }
        }
        return new BatchSummary(entries.size(), accepted, entries.size() - accepted, polled);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Drops the records of partitions the consumer loses from the batch in hand, and keeps new partitions paused while holding. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (current != null && !partitions.isEmpty()) {
                current.drop(partitions);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            inGroup = false;
            onPartitionsRevoked(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            inGroup = true;
            if (holding && !partitions.isEmpty()) {
                consumer.pause(partitions);
            }
        }
    }
}
