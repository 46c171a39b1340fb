package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Layer;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.common.settings.SettingsSchema;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.DataFolderLock;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;

class StandaloneClusterTest {

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Test
    void runsEachServiceAgainstTheEmbeddedServersAndTheCrawlerAsOftenAsAsked() {
        SettingsGroup settings = settings(Map.of());
        List<ServiceFactory> factories = List.of(new Recording("kafka-monitor"), new Recording("crawler"));
        try (StandaloneCluster cluster = StandaloneCluster.start(settings, 2, factories)) {
            assertTrue(cluster.readyLine().endsWith(", services kafka-monitor crawler-1 crawler-2, private addresses allowed "
                    + "(demo; set DOWNLOAD_FORBID_PRIVATE_ADDRESSES=true to forbid)"), cluster.readyLine());
            assertEquals(Layer.LAUNCHER, cluster.settings().service("crawler").layerOf("REDIS_PORT"));
            assertEquals(Layer.LAUNCHER, cluster.settings().service("crawler").layerOf("DOWNLOAD_FORBID_PRIVATE_ADDRESSES"));
            assertFalse(cluster.settings().service("crawler").getBoolean("DOWNLOAD_FORBID_PRIVATE_ADDRESSES"));
        }
        assertEquals(List.of("check kafka-monitor", "check crawler", "start kafka-monitor on 127.0.0.1", "start crawler-1 on 127.0.0.1",
                "start crawler-2 on 127.0.0.1"), events.subList(0, 5));
        assertEquals(Set.of("close crawler-2", "close crawler-1", "close kafka-monitor"), Set.copyOf(events.subList(5, events.size())));
    }

    @Test
    void aServiceThatRefusesItsSettingsStopsTheStartBeforeAnyServiceIsMade() {
        ServiceFactory refusing = new Recording("redis-monitor") {
            @Override
            public void check(Settings settings) {
                throw settings.invalid("RETRY_FAILURES_MAX", "must be at least 0, was " + settings.getInt("RETRY_FAILURES_MAX"));
            }
        };
        SettingsGroup settings = settings(Map.of("redis-monitor.RETRY_FAILURES_MAX", "-1"));
        SettingsException e = assertThrows(SettingsException.class,
                () -> StandaloneCluster.start(settings, 1, List.of(new Recording("kafka-monitor"), refusing, new Recording("crawler"))));
        assertEquals("Setting redis-monitor.RETRY_FAILURES_MAX (from the command line) must be at least 0, was -1", e.getMessage());
        assertEquals(List.of("check kafka-monitor"), events, "nothing made, nothing started");
    }

    @Test
    void eachServiceIsCheckedAsStandaloneWouldRunItAndTheCrawlerOnlyWhenThereAreCrawlers() {
        List<ServiceFactory> factories = List.of(new Recording("rest"), new Recording("crawler"));
        StandaloneCluster.check(settings(Map.of()), 0, factories);
        assertEquals(List.of("check rest on 127.0.0.1"), events, "the gateway on the loopback address, as standalone binds it");
        StandaloneCluster.check(settings(Map.of("FLASK_HOST", "0.0.0.0")), 1, factories);
        assertEquals(List.of("check rest on 127.0.0.1", "check rest on 0.0.0.0", "check crawler"), events);
    }

    @Test
    void theServicesStopTogetherNotOneAfterAnother() {
        SettingsGroup external = settings(Map.of("KAFKA_HOSTS", "127.0.0.1:9", "ZOOKEEPER_HOSTS", "127.0.0.1:9",
                "REDIS_HOST", "127.0.0.1", "REDIS_PORT", "9"));
        CountDownLatch stopping = new CountDownLatch(3);
        List<ServiceFactory> factories = List.of(new Recording("redis-monitor", stopping), new Recording("crawler", stopping));
        StandaloneCluster.start(external, 2, factories).close();

        assertEquals(List.of("check redis-monitor", "check crawler"), events.subList(0, 2));
        assertEquals(Set.of("close redis-monitor", "close crawler-1", "close crawler-2"), Set.copyOf(events.subList(5, events.size())),
                "each stop met the others: every service's stop had begun before any ended");
    }

    @Test
    void aStopAskedDuringTheStartMakesNoFurtherServiceAndClosesThoseStarted() {
        SettingsGroup external = settings(Map.of("KAFKA_HOSTS", "127.0.0.1:9", "ZOOKEEPER_HOSTS", "127.0.0.1:9",
                "REDIS_HOST", "127.0.0.1", "REDIS_PORT", "9"));
        List<ServiceFactory> factories = List.of(new Recording("redis-monitor"), new Recording("crawler"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StandaloneCluster.start(external, 2, factories, () -> events.contains("start redis-monitor on 127.0.0.1")));
        assertEquals("Asked to stop before crawler-1 started", e.getMessage());
        assertEquals(List.of("check redis-monitor", "check crawler", "start redis-monitor on 127.0.0.1", "close redis-monitor"), events);
    }

    /**
     * A start cut short (a service that cannot start, or a Ctrl-C meanwhile) closes the embedded servers as a stop does,
     * without the warning the broker's own Kafka client gives as it shuts down ("Attempting to close NetworkClient that
     * has already been closed").
     */
    @Test
    void aStartCutShortClosesTheServersWithoutTheBrokersOwnWarning() {
        ServiceFactory failing = new Recording("crawler") {
            @Override
            public Service create(ServiceContext context) {
                throw new IllegalStateException("cannot start");
            }
        };
        try (CapturedLog kafka = CapturedLog.start("org.apache.kafka.clients.NetworkClient", Level.WARN)) {
            assertEquals("cannot start", assertThrows(IllegalStateException.class,
                    () -> StandaloneCluster.start(settings(Map.of()), 1, List.of(failing))).getMessage());
            assertEquals(List.of(), kafka.lines());
        }
    }

    @Test
    void theEmbeddedBrokerHasTheClusterTopicsBeforeAnyServiceStarts() throws Exception {
        Set<String> seenAtStart = Collections.synchronizedSet(new HashSet<>());
        ServiceFactory monitor = new Recording("kafka-monitor") {
            @Override
            public Service create(ServiceContext context) {
                seenAtStart.addAll(topics(context.settings()));
                return super.create(context);
            }
        };
        SettingsGroup settings = settings(Map.of("KAFKA_TOPIC_PREFIX", "tour", "KAFKA_INCOMING_TOPIC", "tour.requests"));
        try (StandaloneCluster cluster = StandaloneCluster.start(settings, 0, List.of(monitor))) {
            assertEquals(Set.of("tour.requests", "tour.incoming_rejected", "tour.crawled_firehose", "tour.outbound_firehose",
                    "demo.incoming"), // the gateway's own KAFKA_PRODUCER_TOPIC
                    seenAtStart);
        }
    }

    private static Set<String> topics(Settings settings) {
        try (Admin admin = new KafkaClients(settings).admin()) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("cannot list the topics", e);
        }
    }

    @Test
    void readinessIsAwaitedUntilEveryServiceIsReadyOrTheTimeRunsOut() throws InterruptedException {
        AtomicBoolean joined = new AtomicBoolean();
        AtomicInteger asked = new AtomicInteger();
        ServiceFactory gateway = new Recording("rest") {
            @Override
            public Service create(ServiceContext context) {
                context.health().register("group", HealthRegistry.Kind.READINESS, () -> {
                    asked.incrementAndGet();
                    return joined.get() ? Health.up() : Health.down("not in its group yet");
                });
                return super.create(context);
            }
        };
        try (StandaloneCluster cluster = StandaloneCluster.start(settings(Map.of()), 0, List.of(gateway))) {
            HealthReport waited;
            try (CapturedLog log = CapturedLog.start(StandaloneCluster.class.getName(), Level.INFO)) {
                waited = cluster.awaitReady(Duration.ofMillis(300), Duration.ofMillis(120), () -> false);
                assertEquals(List.of("INFO Waiting 0 s now for the services to be ready: rest.group: not in its group yet"),
                        log.lines().stream().distinct().toList(), "said while waiting, what is awaited");
                assertEquals(2, log.lines().size(), "said each time the period passes");
            }
            assertFalse(waited.isUp());
            assertEquals(Health.down("not in its group yet"), waited.checks().get("rest.group"));
            assertTrue(asked.get() > 2, "asked again while waiting: " + asked.get());
            assertFalse(cluster.awaitReady(Duration.ofMinutes(1), () -> true).isUp(), "a stop ends the wait at once");

            joined.set(true);
            assertTrue(cluster.awaitReady(Duration.ofSeconds(10), () -> false).isUp());
        }
    }

    @Test
    void aServiceThatCouldNotStartEndsTheWaitForReadinessAndIsNamedWithWhy() {
        ServiceFactory monitor = new Recording("redis-monitor") {
            @Override
            public Service create(ServiceContext context) {
                context.health().register("redis", () -> Health.down("the Redis monitor could not start: PLUGINS names Broken"));
                context.health().register("start", HealthRegistry.Kind.LIVENESS,
                        () -> Health.down("could not start: PLUGINS names Broken"));
                return super.create(context);
            }
        };
        try (StandaloneCluster cluster = StandaloneCluster.start(settings(Map.of()), 0, List.of(monitor))) {
            HealthReport waited = assertTimeoutPreemptively(Duration.ofMinutes(1),
                    () -> cluster.awaitReady(Duration.ofHours(1), () -> false), "a service that will never be ready is not waited for");
            assertFalse(waited.isUp());
            assertEquals("redis-monitor.start: could not start: PLUGINS names Broken", cluster.liveness().downChecks());
        }
    }

    @Test
    void aConfiguredAddressIsUsedInsteadOfAnEmbeddedServer() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("external-redis"))) {
            SettingsGroup settings = settings(Map.of("REDIS_HOST", "127.0.0.1", "REDIS_PORT", Integer.toString(redis.port()),
                    "DOWNLOAD_FORBID_PRIVATE_ADDRESSES", "true"));
            try (StandaloneCluster cluster = StandaloneCluster.start(settings, 1, List.of(new Recording("crawler")))) {
                assertTrue(cluster.readyLine().contains(", redis 127.0.0.1:" + redis.port() + " (external)"), cluster.readyLine());
                assertEquals(Layer.COMMAND_LINE, cluster.settings().service("rest").layerOf("REDIS_PORT"));
                assertTrue(cluster.settings().service("crawler").getBoolean("DOWNLOAD_FORBID_PRIVATE_ADDRESSES"), "the user's choice stands");
                assertFalse(cluster.readyLine().contains("private addresses"), cluster.readyLine());
            }
        }
    }

    @Test
    void sentinelsAreNamedInTheReadyLineInsteadOfAnEmbeddedRedis() {
        SettingsGroup settings = settings(Map.of("REDIS_SENTINELS", "127.0.0.1:26501,127.0.0.1:26502",
                "REDIS_SENTINEL_MASTER", "mymaster"));
        try (StandaloneCluster cluster = StandaloneCluster.start(settings, 0, List.of(new Recording("rest")))) {
            assertTrue(cluster.readyLine().contains(", redis master mymaster via Sentinels 127.0.0.1:26501,127.0.0.1:26502 (external),"),
                    cluster.readyLine());
        }
    }

    @Test
    void aTakenPortIsAClearError() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("busy-redis"))) {
            SettingsGroup settings = settings(Map.of("STANDALONE_REDIS_PORT", Integer.toString(redis.port())));
            SettingsException e = assertThrows(SettingsException.class, () -> StandaloneCluster.start(settings, 1, List.of()));
            assertTrue(e.getMessage().startsWith("Setting STANDALONE_REDIS_PORT (from the command line) is " + redis.port()
                    + ", and something already listens there"), e.getMessage());
        }
    }

    @Test
    void aServiceSettingIsCheckedBeforeThePortsSoThatACheckBesideARunningStandaloneFindsIt() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("busy-redis"))) {
            ServiceFactory refusing = new Recording("kafka-monitor") {
                @Override
                public void check(Settings settings) {
                    throw settings.invalid("PLUGINS", "names nope, which is no Kafka monitor plugin");
                }
            };
            SettingsGroup settings = settings(Map.of("STANDALONE_REDIS_PORT", Integer.toString(redis.port())));
            SettingsException e = assertThrows(SettingsException.class, () -> StandaloneCluster.check(settings, 1, List.of(refusing)));
            assertTrue(e.getMessage().contains("PLUGINS"), e.getMessage());
        }
    }

    /** A second standalone on a folder in use would run its own Redis on the first one's files before Kafka's lock refused it. */
    @Test
    void aDataFolderInUseIsRefusedBeforeAnyServerStarts(@TempDir Path tmp) {
        int redisPort = FreePorts.pick();
        try (DataFolderLock held = DataFolderLock.take(tmp)) {
            SettingsException e = assertThrows(SettingsException.class, () -> StandaloneCluster.start(settings(Map.of(
                    "STANDALONE_DATA_DIR", tmp.toString(), "STANDALONE_REDIS_PORT", Integer.toString(redisPort))), 1, List.of()));
            assertEquals("Setting STANDALONE_DATA_DIR (from the command line) is " + tmp + ", a folder in use by process "
                    + ProcessHandle.current().pid() + " (another standalone on it); stop that one, or give this one another folder",
                    e.getMessage());
            IllegalStateException late = assertThrows(IllegalStateException.class, () -> EmbeddedStack.start(
                    new EmbeddedStack.Options(null, null, redisPort, 1, 0, tmp, Duration.ZERO)));
            assertTrue(late.getMessage().startsWith("the data folder " + tmp + " is in use by process"), late.getMessage());
            assertFalse(FreePorts.inUse(redisPort), "no Redis was started on the folder");
        }
        StandaloneCluster.dataDirectory(settings(Map.of("STANDALONE_DATA_DIR", tmp.toString())).service("standalone")); // free again
    }

    @Test
    void aDataFolderThatLacksOneServersDataIsWarnedOf(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("redis")); // a first start cut short after Redis: nothing to warn of
        EmbeddedStack.Options redisAndZooKeeper = new EmbeddedStack.Options(null, 0, 0, 1, 0, tmp, Duration.ZERO);
        assertEquals(List.of(), startAndStop(redisAndZooKeeper), "a new folder: nothing is missing (Kafka is not started here)");
        assertEquals(List.of(), startAndStop(redisAndZooKeeper), "a restart on it");

        new DataDirectory(tmp.resolve("redis"), true).release(); // removed by hand, say
        List<String> said = startAndStop(redisAndZooKeeper);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.getFirst().startsWith("WARN The data folder " + tmp + " holds no redis data: it starts empty"), said.toString());
    }

    /** What starting and stopping a stack of {@code options} warns of. */
    private static List<String> startAndStop(EmbeddedStack.Options options) {
        try (CapturedLog log = CapturedLog.start(EmbeddedStack.class, Level.WARN)) {
            EmbeddedStack.start(options).close();
            return log.lines();
        }
    }

    @Test
    void aDataFolderThatCannotBeOneIsASettingsErrorBeforeAnyServerStarts(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "not a folder");
        Map<String, String> refusals = Map.of(
                file.toString(), "is " + file + ", and " + file + " is a file, not a folder",
                file.resolve("below").toString(), "is " + file.resolve("below") + ", and that folder cannot be created: Not a directory");
        refusals.forEach((value, problem) -> {
            SettingsException e = assertThrows(SettingsException.class,
                    () -> StandaloneCluster.start(settings(Map.of("STANDALONE_DATA_DIR", value)), 1, List.of()));
            assertEquals("Setting STANDALONE_DATA_DIR (from the command line) " + problem, e.getMessage());
        });
        Path missing = tmp.resolve("a").resolve("b");
        assertEquals(missing, StandaloneCluster.dataDirectory(settings(Map.of("STANDALONE_DATA_DIR", missing.toString())).service("standalone")));
        assertTrue(Files.isDirectory(missing), "a missing folder is created");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(missing)), "for this user only");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(missing.getParent())), "and its parents created");
        Path shared = Files.createDirectory(tmp.resolve("shared"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        StandaloneCluster.dataDirectory(settings(Map.of("STANDALONE_DATA_DIR", shared.toString())).service("standalone"));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(shared)), "a folder that is there is left as it is");
        assertEquals(null, StandaloneCluster.dataDirectory(settings(Map.of()).service("standalone")), "unset: a temporary one");
    }

    @Test
    void aRetentionOfNoBytesIsASettingsErrorBeforeAnyServerStarts() {
        for (String value : List.of("0", "-2")) {
            SettingsException e = assertThrows(SettingsException.class,
                    () -> StandaloneCluster.start(settings(Map.of("STANDALONE_KAFKA_RETENTION_BYTES", value)), 1, List.of()));
            assertEquals("Setting STANDALONE_KAFKA_RETENTION_BYTES (from the command line) is " + value
                    + "; give a number of bytes above 0, or -1 to keep everything", e.getMessage());
        }
    }

    private static SettingsGroup settings(Map<String, String> extra) {
        Map<String, String> sets = new LinkedHashMap<>(Map.of("STANDALONE_KAFKA_PORT", "0", "STANDALONE_ZOOKEEPER_PORT", "0",
                "STANDALONE_REDIS_PORT", "0", "METRICS_PORT", "-1", "FLASK_PORT", "0"));
        sets.putAll(extra);
        return SettingsGroup.load(SettingsSchema.SERVICES, new SettingsSources(null, Map.of(), sets));
    }

    /**
     * A factory whose services record their start (with the Redis host they were given) and close; given a latch, a
     * service counts it down as its stop begins and records its close only when the latch reaches zero within 10 s, that
     * is when the stops of the others have begun too.
     */
    private class Recording implements ServiceFactory {

        private final String name;
        private final CountDownLatch stopping;
        private int created;

        Recording(String name) {
            this(name, new CountDownLatch(0));
        }

        Recording(String name, CountDownLatch stopping) {
            this.name = name;
            this.stopping = stopping;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void check(Settings settings) {
            events.add("check " + name + (settings.has("FLASK_HOST") ? " on " + settings.getString("FLASK_HOST") : ""));
        }

        @Override
        public Service create(ServiceContext context) {
            created++;
            String instance = name.equals("crawler") ? name + "-" + created : name;
            return new Service() {
                @Override
                public String name() {
                    return instance;
                }

                @Override
                public void start() {
                    events.add("start " + instance + " on " + context.settings().getString("REDIS_HOST"));
                }

                @Override
                public void close() {
                    stopping.countDown();
                    try {
                        if (stopping.await(10, TimeUnit.SECONDS)) {
                            events.add("close " + instance);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
        }
    }
}
