package org.scrapycluster.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka, ZooKeeper and Redis for one cluster, each started only when asked for. Closing the
 * stack stops what it started, in reverse order, and removes temporary data.
 */
public final class EmbeddedStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStack.class);
    /** The least heap, in MiB, with which a standalone's servers and services start and crawl. */
    static final long LEAST_HEAP_MIB = 96;
    /** The file of a kept data folder that says its servers all started on it once. */
    static final String STARTED = ".scrapy-cluster.started";

    private final EmbeddedKafka kafka;
    private final EmbeddedZooKeeper zookeeper;
    private final EmbeddedRedis redis;
    private final DataDirectory dataDir;
    /** Held on a data folder the user named while the servers use it; null for a temporary one. */
    private final DataFolderLock lock;

    private EmbeddedStack(EmbeddedKafka kafka, EmbeddedZooKeeper zookeeper, EmbeddedRedis redis, DataDirectory dataDir,
            DataFolderLock lock) {
        this.kafka = kafka;
        this.zookeeper = zookeeper;
        this.redis = redis;
        this.dataDir = dataDir;
        this.lock = lock;
    }

    /**
     * What to start and where. A {@code null} port means "do not start this one" (an external
     * server is used); 0 means "any free port". A {@code null} data directory means a temporary
     * one, deleted on close. {@code kafkaRetentionBytes} bounds what each of the broker's partitions
     * keeps ({@link EmbeddedKafka#KEEP_EVERYTHING} for no bound). {@code shutdownGrace} is how long,
     * once the JVM is told to stop, the stack's owner has to close it (services first) before a
     * shutdown hook stops {@code redis-server} by itself; zero stops it at once.
     */
    public record Options(Integer kafkaPort, Integer zookeeperPort, Integer redisPort, int kafkaPartitions,
            long kafkaRetentionBytes, Path dataDir, Duration shutdownGrace) {

        /** Everything on free ports with temporary data, stopped with the JVM: what tests use. */
        public static Options forTests() {
            return new Options(0, 0, 0, 2, EmbeddedKafka.KEEP_EVERYTHING, null, Duration.ZERO);
        }
    }

    /**
     * Starts what {@code options} asks for; on a failure, stops what was already started. A data folder the user named
     * is locked first ({@link DataFolderLock}), so that a second stack on it starts no server.
     *
     * @throws IllegalStateException when another process holds the data folder
     */
    public static EmbeddedStack start(Options options) {
        DataDirectory root = options.dataDir() == null
                ? DataDirectory.temporaryOfThisProcess("scrapy-cluster-")
                : DataDirectory.kept(options.dataDir());
        DataFolderLock lock = root.temporary() ? null : DataFolderLock.take(root.path());
        List<AutoCloseable> started = new ArrayList<>();
        if (lock != null) {
            started.add(lock);
            warnOfMissingParts(root.path(), options);
        }
        ServerExits.install(root.path().resolve("kafka"), root.path().resolve("zookeeper"));
        warnOfShortResources(options);
        try {
            EmbeddedRedis redis = options.redisPort() == null ? null
                    : remember(started, EmbeddedRedis.start(options.redisPort(), root.child("redis"), options.shutdownGrace()));
            EmbeddedZooKeeper zookeeper = options.zookeeperPort() == null ? null
                    : remember(started, EmbeddedZooKeeper.start(options.zookeeperPort(), root.child("zookeeper")));
            EmbeddedKafka kafka = options.kafkaPort() == null ? null
                    : remember(started, EmbeddedKafka.start(options.kafkaPort(), options.kafkaPartitions(),
                            options.kafkaRetentionBytes(), root.child("kafka")));
            if (lock != null) {
                markStarted(root.path());
            }
            return new EmbeddedStack(kafka, zookeeper, redis, root, lock);
        } catch (RuntimeException | Error e) {
            // an Error too: Kafka's metrics add a shutdown hook, which fails when the JVM is stopping (Ctrl-C during start-up)
            for (int i = started.size() - 1; i >= 0; i--) {
                closeQuietly(started.get(i));
            }
            root.release();
            throw e;
        }
    }

    public Optional<EmbeddedKafka> kafka() {
        return Optional.ofNullable(kafka);
    }

    public Optional<EmbeddedZooKeeper> zookeeper() {
        return Optional.ofNullable(zookeeper);
    }

    public Optional<EmbeddedRedis> redis() {
        return Optional.ofNullable(redis);
    }

    /** The broker address; fails when this stack has no Kafka. */
    public String kafkaBootstrap() {
        return kafka().orElseThrow(() -> new IllegalStateException("no embedded Kafka")).bootstrapServers();
    }

    /** The ZooKeeper connect string; fails when this stack has no ZooKeeper. */
    public String zookeeperConnect() {
        return zookeeper().orElseThrow(() -> new IllegalStateException("no embedded ZooKeeper")).connectString();
    }

    /** The Redis port on 127.0.0.1; fails when this stack has no Redis. */
    public int redisPort() {
        return redis().orElseThrow(() -> new IllegalStateException("no embedded Redis")).port();
    }

    @Override
    public void close() {
        for (AutoCloseable part : new AutoCloseable[] {kafka, zookeeper, redis, lock}) {
            if (part != null) {
                closeQuietly(part);
            }
        }
        dataDir.release();
    }

    /** Notes in {@code folder} that its servers started there once, all of them ({@link #warnOfMissingParts}). */
    private static void markStarted(Path folder) {
        try {
            Files.writeString(folder.resolve(STARTED), "the embedded servers started on this folder\n");
        } catch (IOException e) {
            LOG.warn("Cannot mark the data folder {} as started on ({}): a part of it removed later will not be warned of", folder,
                    e.getMessage());
        }
    }

    /**
     * Warns when a data folder its servers all started on before ({@value #STARTED}) lacks one's data now (a folder
     * removed by hand, a disk restored in part): that server starts empty beside the others' data, which then disagree
     * with it (crawls Redis still counts whose results Kafka no longer has, or results whose queues are gone). A first
     * start cut short leaves no mark, so the next start is not warned of the parts it never made.
     */
    private static void warnOfMissingParts(Path folder, Options options) {
        if (!Files.exists(folder.resolve(STARTED))) {
            return;
        }
        Map<String, Boolean> parts = new LinkedHashMap<>();
        if (options.redisPort() != null) {
            parts.put("redis", Files.isDirectory(folder.resolve("redis")));
        }
        if (options.zookeeperPort() != null) {
            parts.put("zookeeper", Files.isDirectory(folder.resolve("zookeeper")));
        }
        if (options.kafkaPort() != null) {
            parts.put("kafka", Files.isDirectory(folder.resolve("kafka")));
        }
        List<String> missing = parts.entrySet().stream().filter(part -> !part.getValue()).map(Map.Entry::getKey).toList();
        if (!missing.isEmpty()) {
            LOG.atWarn().addKeyValue("folder", folder).addKeyValue("missing", missing)
                    .log("The data folder {} holds no {} data: it starts empty beside the others' (queues without their results, "
                            + "or results without their crawls); restore it, or start on an empty folder", folder,
                            String.join(" or ", missing));
        }
    }

    /**
     * What a start of {@code options} warns of before any server starts, for a check of the settings to say as well, where
     * a broker is to start: a disk with less room than the broker may keep (a temporary data folder is made under
     * {@code java.io.tmpdir}), and a heap too small for the servers and the services beside them.
     */
    public static void warnOfShortResources(Options options) {
        if (options.kafkaPort() != null) {
            Path folder = options.dataDir() != null ? options.dataDir() : Path.of(System.getProperty("java.io.tmpdir"));
            warnOfLittleRoom(folder, options.kafkaRetentionBytes());
            heapWarning(Runtime.getRuntime().maxMemory()).ifPresent(LOG::warn);
        }
    }

    /**
     * What to say of a heap of at most {@code maxBytes} for the embedded servers and the services of a {@code standalone}:
     * nothing from {@value #LEAST_HEAP_MIB} MiB, with which it starts and crawls (docs/operations.md "A full disk").
     */
    static Optional<String> heapWarning(long maxBytes) {
        long mib = maxBytes / (1024 * 1024);
        return mib >= LEAST_HEAP_MIB ? Optional.empty() : Optional.of("The JVM's heap is at most " + mib + " MiB, less than the "
                + LEAST_HEAP_MIB + " MiB the embedded servers and the services need together: it would run out of memory. Give"
                + " it more (JAVA_OPTS=-Xmx256m)");
    }

    /**
     * Warns when the disk of the data folder has less room than the broker may keep of one partition: its retention and
     * two segments (the one being written, and the oldest, kept a minute after it is let go), beside Redis's and
     * ZooKeeper's files. A crawl that fills the disk stops the whole process ({@link ServerExits}).
     */
    private static void warnOfLittleRoom(Path folder, long retentionBytes) {
        long free = ServerExits.freeMebibytes(folder);
        if (retentionBytes == EmbeddedKafka.KEEP_EVERYTHING || free < 0) {
            return;
        }
        // max: a retention near Long.MAX_VALUE overflows the sum
        long needed = Math.max(retentionBytes, retentionBytes + 2L * EmbeddedKafka.SEGMENT_BYTES) / (1024 * 1024);
        if (free < needed) {
            LOG.atWarn().addKeyValue("folder", folder).addKeyValue("free_mib", free).addKeyValue("needed_mib", needed)
                    .log("The data folder {} has {} MiB of room, less than the {} MiB the broker may keep of a partition's results "
                            + "(STANDALONE_KAFKA_RETENTION_BYTES and two segments of 64 MiB): a long crawl would fill the disk and stop "
                            + "Scrapy Cluster. Make room, or set STANDALONE_KAFKA_RETENTION_BYTES lower", folder, free, needed);
        }
    }

    private static <T extends AutoCloseable> T remember(List<AutoCloseable> started, T part) {
        started.add(part);
        return part;
    }

    private static void closeQuietly(AutoCloseable part) {
        try {
            part.close();
        } catch (Exception e) {
            LOG.warn("Could not stop {} cleanly: {}", part.getClass().getSimpleName(), e.toString());
        }
    }
}
