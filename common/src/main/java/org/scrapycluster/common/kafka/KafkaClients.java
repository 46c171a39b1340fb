package org.scrapycluster.common.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;

/**
 * Builds Kafka clients from a service's settings: {@code KAFKA_HOSTS}, the
 * {@code KAFKA_PRODUCER_*} and {@code KAFKA_CONSUMER_*} settings the service declares, and last
 * every entry of {@code KAFKA_CLIENT_PROPERTIES} as it is (security, SASL, TLS, tuning), so a
 * user can set any client property. Keys are strings; values are bytes (JSON as UTF-8) or
 * strings.
 */
public final class KafkaClients {

    /** What a service's {@code kafka} check says while it waits for {@link #onceResolvable}. */
    private static final String WAITING_FOR_BROKERS = "waiting for a broker of KAFKA_HOSTS to resolve";
    private static final String CLIENT_PROPERTIES = "KAFKA_CLIENT_PROPERTIES";
    private static final String COMPRESSION = "KAFKA_PRODUCER_COMPRESSION";

    private final Settings settings;
    private final BootstrapServers brokers;

    /**
     * Registers the {@code kafka} check of a service whose client is made {@link #onceResolvable once a broker resolves}:
     * down, saying it waits for one, until the service registers its client's own check under the same name.
     */
    public static void checkWaitingForBrokers(HealthRegistry health) {
        health.register("kafka", () -> Health.down(WAITING_FOR_BROKERS));
    }

    /** @throws org.scrapycluster.common.settings.SettingsException when {@code KAFKA_HOSTS} lists an entry that is no host:port */
    public KafkaClients(Settings settings) {
        this.settings = settings;
        this.brokers = BootstrapServers.of(settings);
    }

    /**
     * These clients once a broker of {@code KAFKA_HOSTS} resolves ({@link BootstrapServers#awaitResolvable}): for a service
     * that makes its Kafka clients as it starts, which Kafka refuses to make while no broker's name resolves.
     *
     * @throws IllegalStateException when the wait is interrupted (the service is stopping); the interrupt is kept
     */
    public KafkaClients onceResolvable(Logger log) {
        try {
            brokers.awaitResolvable(log);
            return this;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped while waiting for a broker of KAFKA_HOSTS to resolve", e);
        }
    }

    /**
     * Producer properties: bootstrap servers, linger, buffer and, where declared, the largest request, the batch size, the
     * socket's send buffer and the compression.
     */
    public Properties producerProperties() {
        Properties properties = common();
        properties.put(ProducerConfig.LINGER_MS_CONFIG, Long.toString(settings.getLong("KAFKA_PRODUCER_BATCH_LINGER_MS")));
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(settings.getLong("KAFKA_PRODUCER_BUFFER_BYTES")));
        if (settings.has("KAFKA_PRODUCER_MAX_REQUEST_SIZE")) {
            properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Long.toString(settings.getLong("KAFKA_PRODUCER_MAX_REQUEST_SIZE")));
        }
        if (settings.has("KAFKA_PRODUCER_BATCH_BYTES")) {
            properties.put(ProducerConfig.BATCH_SIZE_CONFIG, Long.toString(settings.getLong("KAFKA_PRODUCER_BATCH_BYTES")));
        }
        if (settings.has("KAFKA_PRODUCER_SEND_BUFFER_BYTES")) {
            properties.put(ProducerConfig.SEND_BUFFER_CONFIG, Long.toString(settings.getLong("KAFKA_PRODUCER_SEND_BUFFER_BYTES")));
        }
        if (settings.has(COMPRESSION)) {
            properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, settings.getString(COMPRESSION));
        }
        return withClientProperties(properties);
    }

    /**
     * The largest record a producer of {@link #producerProperties()} sends: its {@code max.request.size}
     * ({@code KAFKA_PRODUCER_MAX_REQUEST_SIZE}, or as {@code KAFKA_CLIENT_PROPERTIES} sets it), and no more than its
     * {@code buffer.memory} ({@code KAFKA_PRODUCER_BUFFER_BYTES}), for the producer refuses a record larger than its buffer.
     */
    public long largestRecordBytes() {
        Properties properties = producerProperties();
        Map<String, Object> defaults = ProducerConfig.configDef().defaultValues();
        return Math.min(longIn(properties, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, defaults),
                longIn(properties, ProducerConfig.BUFFER_MEMORY_CONFIG, defaults));
    }

    /** The whole number {@code name} has in producer {@code properties}, or its default when they do not set it. */
    private static long longIn(Properties properties, String name, Map<String, Object> defaults) {
        Object value = properties.getOrDefault(name, defaults.get(name));
        return ((Number) ConfigDef.parseType(name, String.valueOf(value), ConfigDef.Type.LONG)).longValue();
    }

    /** The {@code linger.ms} a producer of {@code properties} waits before it sends a batch. */
    private static long linger(Properties properties) {
        return longIn(properties, ProducerConfig.LINGER_MS_CONFIG, ProducerConfig.configDef().defaultValues());
    }

    /**
     * {@code KAFKA_FEED_TIMEOUT}: how long a sender of one record at a time (the REST gateway's {@code /feed}, the
     * {@code feed} tool) waits for its acknowledgement, for {@link #producerProperties(Duration)}.
     *
     * @throws org.scrapycluster.common.settings.SettingsException as {@link #sendTimeout(String)}
     */
    public Duration feedTimeout() {
        return sendTimeout("KAFKA_FEED_TIMEOUT");
    }

    /**
     * The seconds setting {@code name}, a sender's wait for Kafka's acknowledgement, for {@link #producerProperties(Duration)}.
     *
     * @throws org.scrapycluster.common.settings.SettingsException when it is not longer than the producer's linger
     *                                                             ({@code KAFKA_PRODUCER_BATCH_LINGER_MS}, or
     *                                                             {@code linger.ms} in {@code KAFKA_CLIENT_PROPERTIES}),
     *                                                             which would leave no time to wait once the record is sent
     */
    public Duration sendTimeout(String name) {
        check(settings); // a linger.ms Kafka would refuse is told as such, not as a failure to read it
        Duration timeout = settings.getSeconds(name);
        long linger = linger(producerProperties());
        if (timeout.toMillis() <= linger) {
            throw settings.invalid(name, "is " + timeout.toMillis() + " ms, which must be longer than the producer's "
                    + "linger of " + linger + " ms (KAFKA_PRODUCER_BATCH_LINGER_MS, or linger.ms in " + CLIENT_PROPERTIES + ")");
        }
        return timeout;
    }

    /**
     * {@link #producerProperties()} for a sender that waits for each record's acknowledgement at most {@code sendTimeout}:
     * the producer's own waits fit within it ({@link SendTimeouts}), counted from the linger it will use.
     *
     * @throws IllegalArgumentException when {@code sendTimeout} is not longer than the linger
     */
    public Properties producerProperties(Duration sendTimeout) {
        Properties properties = producerProperties();
        properties.putAll(SendTimeouts.within(sendTimeout, linger(properties)));
        return properties;
    }

    /**
     * How long a member of a consumer group may go unheard before the broker gives its partitions to the others: the
     * original's (kafka-python's) 10 s rather than the Java client's 45 s, so that a Kafka monitor that crashed and was
     * started again, or a {@code standalone} started again on its data folder, reads its partitions 10 s after it left,
     * not 45 (docs/operations.md, "Nothing lost"). A member stopped cleanly leaves the group at once either way.
     */
    static final Duration GROUP_SESSION_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Consumer properties for {@code groupId}; with no group (null) the consumer commits nothing
     * and must be assigned partitions rather than subscribe. A group member's session lasts
     * {@link #GROUP_SESSION_TIMEOUT} unless {@code KAFKA_CLIENT_PROPERTIES} sets it, or asks for the group protocol in
     * which the broker sets it ({@code group.protocol: consumer}).
     */
    public Properties consumerProperties(String groupId) {
        Properties properties = common();
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, settings.getString("KAFKA_CONSUMER_AUTO_OFFSET_RESET"));
        properties.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, Long.toString(settings.getLong("KAFKA_CONSUMER_COMMIT_INTERVAL_MS")));
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Long.toString(settings.getLong("KAFKA_CONSUMER_FETCH_MESSAGE_MAX_BYTES")));
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, Boolean.toString(groupId != null && settings.getBoolean("KAFKA_CONSUMER_AUTO_COMMIT_ENABLE")));
        if (groupId != null) {
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        withClientProperties(properties);
        if (groupId == null) {
            properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        } else if (!GroupProtocol.CONSUMER.name.equalsIgnoreCase(String.valueOf(properties.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)).strip())) {
            properties.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(GROUP_SESSION_TIMEOUT.toMillis()));
        }
        return properties;
    }

    /** A producer of JSON bytes. */
    public Producer<String, byte[]> bytesProducer() {
        return producer(new ByteArraySerializer());
    }

    /** A producer of values written by {@code values}, e.g. a {@code StringSerializer} for text. */
    public <V> Producer<String, V> producer(Serializer<V> values) {
        return new KafkaProducer<>(producerProperties(), new StringSerializer(), values);
    }

    /** A consumer of raw bytes, so that the reader decides what to do with invalid UTF-8. */
    public Consumer<String, byte[]> bytesConsumer(String groupId) {
        return consumer(groupId, new ByteArrayDeserializer());
    }

    /** A consumer of values read by {@code values}, in {@code groupId} (null for none). */
    public <V> Consumer<String, V> consumer(String groupId, Deserializer<V> values) {
        return new KafkaConsumer<>(consumerProperties(groupId), new StringDeserializer(), values);
    }

    /** An admin client (topic listing and creation). */
    public Admin admin() {
        return Admin.create(withClientProperties(common()));
    }

    /**
     * The brokers of {@code settings}' {@code KAFKA_HOSTS}, as Kafka's {@code bootstrap.servers} and messages name them.
     *
     * @throws org.scrapycluster.common.settings.SettingsException for an entry that is no host:port ({@link BootstrapServers})
     */
    public static String bootstrapServers(Settings settings) {
        return BootstrapServers.of(settings).text();
    }

    private Properties common() {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers.text());
        return properties;
    }

    /**
     * Refuses the settings the clients could not be made with, as making them would, without making one: a
     * {@code KAFKA_HOSTS} that names no broker, a {@code KAFKA_PRODUCER_COMPRESSION} the producer does not know, an entry
     * of {@code KAFKA_CLIENT_PROPERTIES} whose value a producer, consumer or admin client refuses (of the wrong type, or
     * not one it takes). A name no client knows is left to the client, which warns of it.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        BootstrapServers.of(settings);
        if (settings.has(COMPRESSION)) {
            String codec = settings.getString(COMPRESSION);
            refuseUnlessValid(ProducerConfig.configDef(), ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                    problem -> settings.invalid(COMPRESSION, "is '" + codec + "', which Kafka's producer refuses: " + problem));
        }
        settings.getMap(CLIENT_PROPERTIES).forEach((name, value) -> {
            if (value == null) {
                return;
            }
            for (ConfigDef client : List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef())) {
                refuseUnlessValid(client, name, String.valueOf(value), problem -> settings.invalid(CLIENT_PROPERTIES,
                        "gives " + name + " the value '" + value + "', which Kafka's clients refuse: " + problem));
            }
        });
    }

    /** Throws what {@code refusal} makes of the problem when {@code client} would refuse {@code value} for {@code name}. */
    private static void refuseUnlessValid(ConfigDef client, String name, String value, Function<String, RuntimeException> refusal) {
        ConfigDef.ConfigKey key = client.configKeys().get(name);
        if (key == null) {
            return;
        }
        try {
            Object parsed = ConfigDef.parseType(name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(name, parsed);
            }
        } catch (ConfigException e) {
            throw refusal.apply(e.getMessage());
        }
    }

    private Properties withClientProperties(Properties properties) {
        for (Map.Entry<String, Object> entry : settings.getMap(CLIENT_PROPERTIES).entrySet()) {
            if (entry.getValue() == null) {
                properties.remove(entry.getKey());
            } else {
                properties.put(entry.getKey(), String.valueOf(entry.getValue()));
            }
        }
        return properties;
    }
}
