package org.scrapycluster.standalone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.metrics.MetricsServer;
import org.scrapycluster.common.net.LocalAddresses;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.embedded.DataFolderLock;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole cluster in this JVM. Starts an embedded Kafka, ZooKeeper and Redis for each of them
 * whose address the user did not set ({@code KAFKA_HOSTS}, {@code ZOOKEEPER_HOSTS},
 * {@code REDIS_HOST} or {@code REDIS_PORT}), points every service's settings at them, then runs
 * the services with one metrics and health endpoint. The REST gateway listens on 127.0.0.1 unless
 * {@code FLASK_HOST} is set, and the crawlers may fetch private addresses (the demo sites are on
 * loopback) unless {@code DOWNLOAD_FORBID_PRIVATE_ADDRESSES} is set. Closing stops the services, together, then the
 * embedded servers, and removes their temporary data.
 */
public final class StandaloneCluster implements AutoCloseable {

    /**
     * How long a stop may take once the JVM is told to stop: the services stop first, together, each within its own
     * shutdown grace (30 s at most: the crawlers' and the Redis monitor's), then the embedded servers close, whose Redis
     * waits that long for its turn.
     */
    public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(60);
    private static final Duration READY_POLL = Duration.ofMillis(50);
    /** How long a wait for readiness goes unsaid, and then how often it is said again. */
    private static final Duration READY_WAIT_SAID = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneCluster.class);

    private static final String CRAWLER = "crawler";
    private static final String REST = "rest";
    private static final String METRICS_PORT = "METRICS_PORT";
    /**
     * Most crawler nodes one process runs: each has its own connections, buffers and threads, so that many more only
     * compete for the process's cores and memory.
     */
    static final int MAX_CRAWLERS = 64;
    /** The REST gateway's bind address: loopback in standalone unless the user sets it. */
    private static final String GATEWAY_HOST = "FLASK_HOST";
    private static final String LOOPBACK = "127.0.0.1";
    /** The crawlers' guard against internal addresses: off in standalone, whose demo sites live on loopback, unless the user sets it. */
    private static final String PRIVATE_ADDRESS_GUARD = "DOWNLOAD_FORBID_PRIVATE_ADDRESSES";
    private static final String DATA_DIR = "STANDALONE_DATA_DIR";
    private static final String KAFKA_RETENTION = "STANDALONE_KAFKA_RETENTION_BYTES";

    private final EmbeddedStack stack;
    private final ServiceHost host;
    private final SettingsGroup settings;
    private final List<String> started;
    private final Map<String, URI> userUrls;

    private StandaloneCluster(EmbeddedStack stack, ServiceHost host, SettingsGroup settings, List<String> started,
            Map<String, URI> userUrls) {
        this.stack = stack;
        this.host = host;
        this.settings = settings;
        this.started = started;
        this.userUrls = userUrls;
    }

    /** Starts the embedded servers it should, then one instance of each service ({@code crawlers} crawlers). */
    public static StandaloneCluster start(SettingsGroup userSettings, int crawlers, List<ServiceFactory> factories) {
        return start(userSettings, crawlers, factories, () -> false);
    }

    /**
     * Starts as {@link #start(SettingsGroup, int, List)} does, but for a stop asked meanwhile ({@code stopping}, Ctrl-C or
     * SIGTERM): then the next service is not made, what had started is closed, and the start fails saying so.
     */
    public static StandaloneCluster start(SettingsGroup userSettings, int crawlers, List<ServiceFactory> factories,
            BooleanSupplier stopping) {
        EmbeddedStack stack = EmbeddedStack.start(check(userSettings, crawlers, factories));
        ServiceHost host = null;
        try {
            Map<String, Object> launcherValues = launcherDefaults(userSettings);
            launcherValues.putAll(addresses(stack));
            SettingsGroup settings = userSettings.withLauncherValues(launcherValues);
            if (stack.kafka().isPresent()) {
                ClusterTopics.create(settings);
            }
            host = ServiceHost.start(settings.service("standalone"));
            List<String> started = new ArrayList<>();
            Map<String, URI> userUrls = new LinkedHashMap<>();
            for (ServiceFactory factory : factories) {
                Settings serviceSettings = settings.service(factory.name());
                int instances = factory.name().equals(CRAWLER) ? crawlers : 1;
                for (int i = 1; i <= instances; i++) {
                    String instance = instances == 1 ? factory.name() : factory.name() + "-" + i;
                    if (stopping.getAsBoolean()) {
                        throw new IllegalStateException("Asked to stop before " + instance + " started");
                    }
                    Service service = factory.create(host.context(serviceSettings, instance));
                    host.run(service);
                    started.add(instance);
                    service.userUrl().ifPresent(url -> userUrls.put(instance, url));
                }
            }
            return new StandaloneCluster(stack, host, settings, List.copyOf(started), Collections.unmodifiableMap(userUrls));
        } catch (RuntimeException | Error e) {
            // an Error too (one a library throws when the JVM is stopping during start-up): the temporary data goes all the same
            if (host != null) {
                host.close();
            }
            closeServers(stack);
            throw e;
        }
    }

    /** The settings every service runs with, pointed at the embedded servers. */
    public SettingsGroup settings() {
        return settings;
    }

    /** Where users reach the services that have such an address (the REST gateway), by instance name. */
    public Map<String, URI> userUrls() {
        return userUrls;
    }

    /** Where the one metrics and health endpoint of the cluster's services listens, when it does. */
    public Optional<InetSocketAddress> metricsAddress() {
        return host.metricsAddress();
    }

    /**
     * Waits until every service is ready, as {@code /health/ready} says (connected to its servers, its consumers in
     * their groups), for at most {@code timeout}: a service starts before its Kafka consumer has joined its group,
     * and a request it took in between would be refused. Returns the last report, down when the time ran out,
     * {@code stopping} said to give up, or a service could not start ({@link #liveness()}: it would never be ready).
     */
    public HealthReport awaitReady(Duration timeout, BooleanSupplier stopping) throws InterruptedException {
        return awaitReady(timeout, READY_WAIT_SAID, stopping);
    }

    /** Waits as {@link #awaitReady(Duration, BooleanSupplier)} does, saying what it waits for each {@code saidEvery}. */
    HealthReport awaitReady(Duration timeout, Duration saidEvery, BooleanSupplier stopping) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextSaid = start + saidEvery.toNanos();
        HealthReport report = host.readiness();
        while (!report.isUp() && System.nanoTime() < deadline && !stopping.getAsBoolean() && liveness().isUp()) {
            if (System.nanoTime() - nextSaid >= 0) {
                // a consumer group a killed process left takes 10 s to give its partitions back: say what is awaited
                LOG.atInfo().addKeyValue("checks", report.downChecks()).log("Waiting {} s now for the services to be ready: {}",
                        Duration.ofNanos(System.nanoTime() - start).toSeconds(), report.downChecks());
                nextSaid += saidEvery.toNanos();
            }
            Thread.sleep(READY_POLL.toMillis());
            report = host.readiness();
        }
        return report;
    }

    /**
     * The liveness checks of every service: down when one could not start once its servers answered (a Redis monitor
     * plugin whose factory failed, a crawler node that could not start) or its loop has ended.
     */
    public HealthReport liveness() {
        return host.liveness();
    }

    /** The one line printed when everything is up: where each server is, where users reach the gateway, and what runs. */
    public String readyLine() {
        Settings rm = settings.service("redis-monitor");
        StringBuilder line = new StringBuilder("Scrapy Cluster ready: ")
                .append("kafka ").append(KafkaClients.bootstrapServers(rm)).append(external(stack.kafka().isEmpty()))
                .append(", zookeeper ").append(rm.getString("ZOOKEEPER_HOSTS")).append(external(stack.zookeeper().isEmpty()))
                .append(", redis ").append(redis(RedisEndpoint.from(rm))).append(external(stack.redis().isEmpty()));
        host.metricsAddress().ifPresent(address -> line.append(", metrics http://")
                .append(address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getAddress().getHostAddress())
                .append(':').append(address.getPort()).append("/metrics"));
        userUrls.forEach((instance, url) -> line.append(", ").append(instance).append(' ').append(url));
        if (!started.isEmpty()) {
            line.append(", services ").append(String.join(" ", started));
        }
        if (started.stream().anyMatch(instance -> instance.startsWith(CRAWLER))
                && !settings.service(CRAWLER).getBoolean(PRIVATE_ADDRESS_GUARD)) {
            line.append(", private addresses allowed (demo; set ").append(PRIVATE_ADDRESS_GUARD).append("=true to forbid)");
        }
        return line.toString();
    }

    /** {@code 127.0.0.1:6379}, or with Sentinels {@code master mymaster via Sentinels 10.0.0.5:26379,10.0.0.6:26379}. */
    private static String redis(RedisEndpoint endpoint) {
        return endpoint.usesSentinels() ? "master " + endpoint.sentinelMaster() + " via Sentinels "
                + endpoint.sentinels().stream().map(RedisEndpoint.Sentinel::toString).collect(Collectors.joining(","))
                : endpoint.host() + ":" + endpoint.port();
    }

    @Override
    public void close() {
        try {
            host.close();
        } finally {
            closeServers(stack);
        }
    }

    /** Closes the embedded servers once the services are closed, after a stop or a start cut short. */
    private static void closeServers(EmbeddedStack stack) {
        Logging.closingEmbeddedKafka(stack::close);
    }

    /**
     * What {@link #start} checks before it starts anything, and the embedded servers' options it starts them with: the
     * number of crawlers, the settings of each service of {@code factories} as it would run here
     * ({@link ServiceFactory#check}; the crawler's only when there are crawlers), then the embedded servers' settings
     * (each port free, the data folder usable, created when missing, the partitions and the retention).
     *
     * @throws SettingsException naming what is wrong
     */
    static EmbeddedStack.Options check(SettingsGroup userSettings, int crawlers, List<ServiceFactory> factories) {
        if (crawlers < 0 || crawlers > MAX_CRAWLERS) {
            throw new SettingsException("The number of crawlers (--crawlers, STANDALONE_CRAWLERS) is " + crawlers + "; give 0 to " + MAX_CRAWLERS
                    + " (more crawl as processes of their own, on as many machines as you like: docs/operations.md, \"Scaling\")");
        }
        SettingsGroup settings = userSettings.withLauncherValues(launcherDefaults(userSettings));
        for (ServiceFactory factory : factories) {
            if (crawlers > 0 || !factory.name().equals(CRAWLER)) {
                ServiceFactory.vet(factory, settings.service(factory.name()));
            }
        }
        // last: a port taken by a standalone already running says nothing of the settings, which a check is for
        EmbeddedStack.Options options = embeddedOptions(userSettings, userSettings.service("standalone"));
        if (factories.stream().anyMatch(factory -> factory.name().equals(REST))) {
            listenPortFree(settings.service(REST), GATEWAY_HOST, "FLASK_PORT", "0 for any free one");
        }
        Settings own = settings.service("standalone");
        if (MetricsServer.address(own).isPresent()) {
            listenPortFree(own, "METRICS_HOST", METRICS_PORT, "0 for any free one, or -1 for none");
        }
        return options;
    }

    /**
     * Refuses {@code portSetting} when something listens where the service would bind it, {@code hostSetting}'s address,
     * and {@code hostSetting} when it is no address of this host: said by a check in the seconds a JVM takes to start,
     * not by the start once the embedded servers run. A host that does not resolve is left to the start, which says why
     * it cannot bind.
     */
    private static void listenPortFree(Settings settings, String hostSetting, String portSetting, String otherPorts) {
        int port = settings.getInt(portSetting);
        InetSocketAddress address = new InetSocketAddress(settings.getString(hostSetting), port);
        if (!address.isUnresolved() && !LocalAddresses.isOfThisHost(address)) {
            throw settings.invalid(hostSetting, "is " + address.getHostString() + ", which is not an address of this host");
        }
        if (port != 0 && !address.isUnresolved() && FreePorts.inUse(address)) {
            throw settings.invalid(portSetting, "is " + port + ", and something already listens on " + address.getHostString() + ":"
                    + port + " (is a standalone running?). Stop it, or set " + portSetting + " to another port (" + otherPorts + ")");
        }
    }

    /** What standalone sets where the user did not: the gateway on the loopback address, private addresses allowed (a demo). */
    private static Map<String, Object> launcherDefaults(SettingsGroup userSettings) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (!userSettings.isUserSet(GATEWAY_HOST)) {
            values.put(GATEWAY_HOST, LOOPBACK);
        }
        if (!userSettings.isUserSet(PRIVATE_ADDRESS_GUARD)) {
            values.put(PRIVATE_ADDRESS_GUARD, false);
        }
        return values;
    }

    private static EmbeddedStack.Options embeddedOptions(SettingsGroup settings, Settings own) {
        Path dataDir = dataDirectory(own); // first: a folder in use says so, rather than the ports its standalone holds
        Integer kafka = settings.isUserSet("KAFKA_HOSTS") ? null : port(own, "STANDALONE_KAFKA_PORT", "Kafka", "KAFKA_HOSTS");
        Integer zookeeper = settings.isUserSet("ZOOKEEPER_HOSTS") ? null
                : port(own, "STANDALONE_ZOOKEEPER_PORT", "ZooKeeper", "ZOOKEEPER_HOSTS");
        if (zookeeper != null) {
            refuseTlsToEmbeddedZooKeeper(settings);
        }
        boolean externalRedis = settings.isUserSet("REDIS_HOST") || settings.isUserSet("REDIS_PORT") || settings.isUserSet("REDIS_SENTINELS");
        if (!externalRedis) {
            refuseLoginToEmbeddedRedis(settings);
        }
        Integer redis = externalRedis ? null
                : port(own, "STANDALONE_REDIS_PORT", "Redis", "REDIS_HOST");
        int partitions = own.getInt("STANDALONE_KAFKA_PARTITIONS");
        if (partitions < 1) {
            throw own.invalid("STANDALONE_KAFKA_PARTITIONS", "must be at least 1");
        }
        long retention = own.getLong(KAFKA_RETENTION);
        if (retention < 1 && retention != EmbeddedKafka.KEEP_EVERYTHING) {
            throw own.invalid(KAFKA_RETENTION, "is " + retention + "; give a number of bytes above 0, or -1 to keep everything");
        }
        return new EmbeddedStack.Options(kafka, zookeeper, redis, partitions, retention, dataDir, SHUTDOWN_GRACE);
    }

    /**
     * Refuses a login or TLS set for Redis when the Redis is the embedded one, which asks for neither: its services would
     * be refused at every try (a settings file meant for a Redis of its own, its address left out).
     */
    private static void refuseLoginToEmbeddedRedis(SettingsGroup settings) {
        Settings any = settings.service(settings.services().getFirst());
        for (String login : List.of("REDIS_USERNAME", "REDIS_PASSWORD", "REDIS_TLS")) {
            boolean given = login.equals("REDIS_TLS") ? any.getBoolean(login) : any.getNullableString(login) != null;
            if (settings.isUserSet(login) && given) {
                throw any.invalid(login, "is set, but this standalone runs its own Redis, which asks for no login and speaks no TLS: "
                        + "set REDIS_HOST (and REDIS_PORT) to use the Redis it is meant for, or leave it out");
            }
        }
    }

    /**
     * Refuses TLS set for ZooKeeper when the ZooKeeper is the embedded one, which speaks none: every service would fail
     * its handshake at every try.
     */
    private static void refuseTlsToEmbeddedZooKeeper(SettingsGroup settings) {
        for (String service : settings.services()) {
            Settings own = settings.service(service);
            if (own.has("ZOOKEEPER_TLS") && own.isUserSet("ZOOKEEPER_TLS") && own.getBoolean("ZOOKEEPER_TLS")) {
                throw own.invalid("ZOOKEEPER_TLS", "is true, but this standalone runs its own ZooKeeper, which speaks no TLS: "
                        + "set ZOOKEEPER_HOSTS to use the ZooKeeper it is meant for, or leave it out");
            }
        }
    }

    /**
     * The folder {@code STANDALONE_DATA_DIR} names, created when missing, or {@code null} for a temporary one; a value
     * that cannot be such a folder is a settings error that says why, not an I/O failure once the servers start.
     */
    static Path dataDirectory(Settings own) {
        String value = own.getNullableString(DATA_DIR);
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw own.invalid(DATA_DIR, "is empty; name a folder, or leave it unset for a temporary one");
        }
        Path path;
        try {
            path = Path.of(value);
        } catch (InvalidPathException e) {
            throw own.invalid(DATA_DIR, "is '" + value + "', which is not a path: " + e.getReason());
        }
        try {
            createOwnerOnly(path);
        } catch (FileAlreadyExistsException e) {
            throw own.invalid(DATA_DIR, "is " + value + ", and " + e.getFile() + " is a file, not a folder");
        } catch (IOException e) {
            throw own.invalid(DATA_DIR, "is " + value + ", and that folder cannot be created: " + reason(e));
        }
        if (!Files.isWritable(path)) {
            throw own.invalid(DATA_DIR, "is " + value + ", a folder this process cannot write to");
        }
        Optional<String> holder;
        try {
            holder = DataFolderLock.holder(path);
        } catch (UncheckedIOException e) {
            throw own.invalid(DATA_DIR, "is " + value + ", and its lock file cannot be read: " + e.getCause().getMessage());
        }
        if (holder.isPresent()) {
            throw own.invalid(DATA_DIR, "is " + value + ", a folder " + holder.get());
        }
        return path;
    }

    /**
     * Creates {@code path} and its missing parents readable by this user only where the file system has POSIX
     * permissions (the data holds every crawled page); a folder that is there keeps the permissions it has.
     */
    private static void createOwnerOnly(Path path) throws IOException {
        try {
            Files.createDirectories(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(path);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.toString();
    }

    private static int port(Settings own, String setting, String server, String addressSetting) {
        int port = own.getListenPort(setting);
        if (port != 0 && FreePorts.inUse(port)) {
            throw own.invalid(setting, "is " + port + ", and something already listens there (is a " + server
                    + " running?). Stop it, set " + setting + " to another port (0 for any free one), or set "
                    + addressSetting + " to use that server instead of an embedded one");
        }
        return port;
    }

    private static Map<String, Object> addresses(EmbeddedStack stack) {
        Map<String, Object> values = new LinkedHashMap<>();
        stack.kafka().ifPresent(kafka -> values.put("KAFKA_HOSTS", List.of(kafka.bootstrapServers())));
        stack.zookeeper().ifPresent(zookeeper -> values.put("ZOOKEEPER_HOSTS", zookeeper.connectString()));
        stack.redis().ifPresent(redis -> {
            values.put("REDIS_HOST", redis.host());
            values.put("REDIS_PORT", redis.port());
        });
        return values;
    }

    private static String external(boolean external) {
        return external ? " (external)" : "";
    }
}
