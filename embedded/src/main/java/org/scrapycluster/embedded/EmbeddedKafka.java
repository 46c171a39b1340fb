package org.scrapycluster.embedded;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SequencedMap;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.security.plain.PlainLoginModule;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A one-node Kafka cluster in this JVM: KRaft in combined mode (broker and controller), plain text on 127.0.0.1 (or, for
 * tests, TLS: {@link #startOverTls}; SASL logins: {@link #startWithSaslLogins}), topics created on first use (unless asked
 * not to), replication factors of 1. Start-up takes about a second and a half, so tests share one.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** The retention of {@link #start(int, int, long, DataDirectory)} that keeps every record, for Kafka's 7 days. */
    public static final long KEEP_EVERYTHING = -1;
    /** The size of a segment of a partition's log: retention lets a segment go whole, the oldest first. */
    public static final int SEGMENT_BYTES = 64 * 1024 * 1024;

    private static final int NODE_ID = 1;

    private final int port;
    private final DataDirectory dataDir;
    private final KafkaRaftServer server;

    private EmbeddedKafka(int port, DataDirectory dataDir, KafkaRaftServer server) {
        this.port = port;
        this.dataDir = dataDir;
        this.server = server;
    }

    /**
     * Starts a broker on {@code port} (0 picks a free one). {@code partitions} is the partition
     * count of topics created on first use.
     */
    public static EmbeddedKafka start(int port, int partitions, DataDirectory dataDir) {
        return start(port, partitions, KEEP_EVERYTHING, dataDir, true);
    }

    /**
     * As {@link #start(int, int, DataDirectory)}, each partition keeping at most {@code retentionBytes} of records
     * (Kafka's {@code log.retention.bytes}; {@link #KEEP_EVERYTHING} for no bound): once a partition holds more, its
     * oldest 64 MiB segments are deleted at the next check (every 30 s) and their files removed a minute later.
     */
    public static EmbeddedKafka start(int port, int partitions, long retentionBytes, DataDirectory dataDir) {
        return start(port, partitions, retentionBytes, dataDir, true);
    }

    /**
     * As {@link #start(int, int, DataDirectory)}; with {@code createTopicsOnUse} false the broker
     * creates no topic on first use ({@code auto.create.topics.enable=false}), as many production
     * clusters are set up: a topic exists only once an admin client creates it.
     */
    public static EmbeddedKafka start(int port, int partitions, DataDirectory dataDir, boolean createTopicsOnUse) {
        return start(port, partitions, KEEP_EVERYTHING, dataDir, createTopicsOnUse);
    }

    /**
     * As {@link #start(int, int, DataDirectory)} on a free port, its clients' listener speaking TLS only: the broker
     * shows the key and certificate chain of the PEM file {@code keyAndChain} (an unencrypted PKCS#8 key first) and asks
     * every client for a certificate signed by a CA of the PEM file {@code clientCa}. For the tests of a cluster whose
     * clients reach Kafka over TLS ({@code KAFKA_CLIENT_PROPERTIES}); {@link #bootstrapServers()} names the TLS port.
     */
    public static EmbeddedKafka startOverTls(int partitions, DataDirectory dataDir, Path keyAndChain, Path clientCa) {
        return start(0, partitions, KEEP_EVERYTHING, dataDir, true, "SSL", Map.of(
                "ssl.keystore.type", "PEM",
                "ssl.keystore.location", keyAndChain.toString(),
                "ssl.truststore.type", "PEM",
                "ssl.truststore.location", clientCa.toString(),
                "ssl.client.auth", "required"), Map.of());
    }

    /**
     * As {@link #start(int, int, DataDirectory)} on a free port, its clients' listener asking for a SASL login, mechanism
     * PLAIN, unencrypted (SASL_PLAINTEXT): {@code users} are the names and passwords it takes, the first its own. For the
     * tests of a cluster whose clients log in to Kafka ({@code KAFKA_CLIENT_PROPERTIES}).
     */
    public static EmbeddedKafka startWithSaslLogins(int partitions, DataDirectory dataDir, SequencedMap<String, String> users) {
        Map.Entry<String, String> own = users.firstEntry();
        StringBuilder jaas = new StringBuilder(PlainLoginModule.class.getName()).append(" required username=\"").append(own.getKey())
                .append("\" password=\"").append(own.getValue()).append('"');
        users.forEach((name, password) -> jaas.append(" user_").append(name).append("=\"").append(password).append('"'));
        return start(0, partitions, KEEP_EVERYTHING, dataDir, true, "SASL_PLAINTEXT", Map.of(
                "sasl.enabled.mechanisms", "PLAIN",
                "plain.sasl.jaas.config", jaas.append(';').toString()), Map.of("sasl.mechanism.inter.broker.protocol", "PLAIN"));
    }

    private static EmbeddedKafka start(int port, int partitions, long retentionBytes, DataDirectory dataDir,
            boolean createTopicsOnUse) {
        return start(port, partitions, retentionBytes, dataDir, createTopicsOnUse, "PLAINTEXT", Map.of(), Map.of());
    }

    /**
     * {@code protocol}: the clients' listener's, PLAINTEXT, SSL or SASL_PLAINTEXT; {@code listener}: that listener's own
     * broker settings; {@code broker}: settings of the whole broker that the protocol needs.
     */
    private static EmbeddedKafka start(int port, int partitions, long retentionBytes, DataDirectory dataDir,
            boolean createTopicsOnUse, String protocol, Map<String, String> listener, Map<String, String> broker) {
        for (int attempt = 1; ; attempt++) {
            int brokerPort = port == 0 ? FreePorts.pick() : port;
            Properties config = config(brokerPort, FreePorts.pick(), partitions, retentionBytes, dataDir, createTopicsOnUse);
            withListener(config, brokerPort, protocol, listener);
            config.putAll(broker);
            try {
                format(dataDir);
                KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
                server.startup();
                return new EmbeddedKafka(brokerPort, dataDir, server);
            } catch (RuntimeException e) {
                // With free ports, another process may have bound one of them in between: try new ones.
                if (port != 0 || attempt == 3) {
                    throw new IllegalStateException("cannot start the embedded Kafka broker on port " + brokerPort, e);
                }
            }
        }
    }

    /** {@code 127.0.0.1:<port>}, the form of the {@code KAFKA_HOSTS} setting. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        dataDir.release();
    }

    private static Properties config(int brokerPort, int controllerPort, int partitions, long retentionBytes,
            DataDirectory dataDir, boolean createTopicsOnUse) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("log.dirs", dataDir.path().toString());
        p.put("num.partitions", Integer.toString(partitions));
        p.put("auto.create.topics.enable", Boolean.toString(createTopicsOnUse));
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        // Crawled pages can be large; the producers' limit (KAFKA_PRODUCER_MAX_REQUEST_SIZE) is the real bound.
        p.put("message.max.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("replica.fetch.max.bytes", Integer.toString(16 * 1024 * 1024));
        p.put("log.segment.bytes", Integer.toString(SEGMENT_BYTES));
        // A crawled page is about 16 KB on the log, so only a bound on what a partition keeps stops a long crawl from
        // filling the disk; checked every 30 s rather than Kafka's 5 min, so that a fast crawl overshoots it less.
        p.put("log.retention.bytes", Long.toString(retentionBytes));
        p.put("log.retention.check.interval.ms", "30000");
        // The controller's no-op records, by which other brokers and controllers see that the metadata log is alive,
        // every 5 s rather than Kafka's 0.5: a process that is its own quorum has no one to tell, and each one is a
        // write and a flush of that log (docs/cpu-per-page.md, "An idle standalone wakes less").
        p.put("metadata.max.idle.interval.ms", "5000");
        // The log cleaner compacts only the consumer groups' offsets here, a few hundred keys; Kafka's 128 MiB map for
        // them took half of a 256 MB heap shared with the services, and a heap under about 150 MB could not start.
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        return p;
    }

    /**
     * Adds the clients' listener on {@code brokerPort}, named after its {@code protocol}, which the broker also uses to
     * reach itself, with the broker settings {@code listener} for that listener only.
     */
    private static void withListener(Properties p, int brokerPort, String protocol, Map<String, String> listener) {
        p.put("listeners", protocol + "://127.0.0.1:" + brokerPort + "," + p.get("listeners"));
        p.put("advertised.listeners", protocol + "://127.0.0.1:" + brokerPort);
        p.put("inter.broker.listener.name", protocol);
        p.put("listener.security.protocol.map", protocol + ":" + protocol + ",CONTROLLER:PLAINTEXT");
        listener.forEach((key, value) -> p.put("listener.name." + protocol.toLowerCase(Locale.ROOT) + "." + key, value));
    }

    private static void format(DataDirectory dataDir) {
        if (Files.exists(dataDir.path().resolve("meta.properties"))) {
            return;
        }
        try {
            new Formatter()
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .addDirectory(dataDir.path().toString())
                    .setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(dataDir.path().toString())
                    .setHasDynamicQuorum(false)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka log directory " + dataDir.path(), e);
        }
    }
}
