package org.scrapycluster.standalone;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.scrapycluster.common.cli.CheckOption;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.logging.LogConfig;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.embedded.EmbeddedStack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster standalone}: runs the whole cluster in this JVM, prints one ready line,
 * and stops cleanly on Ctrl-C or SIGTERM (or when its thread is interrupted).
 */
@Command(name = "standalone", mixinStandardHelpOptions = true,
        description = {"Run the whole cluster in one JVM: embedded Kafka (127.0.0.1:9092), ZooKeeper (127.0.0.1:2181)"
                + " and Redis (127.0.0.1:6379), each unless its address is configured, and the services, with the REST"
                + " gateway and web UI on 127.0.0.1:5343 (FLASK_HOST, FLASK_PORT).",
                "Settings of every service apply; see docs/settings.md."})
public final class StandaloneCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneCommand.class);
    /** How long the ready line waits for every service to be ready (a configured server may be away). */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    @Mixin
    SettingsOptions options;

    @Option(names = "--crawlers", paramLabel = "N", description = "Number of crawler nodes (default: STANDALONE_CRAWLERS, 1).")
    Integer crawlers;

    @Option(names = "--check", description = "Check the settings and options as a start would (names, types and values,"
            + " every service's included; the plugins' classes; the ports of the embedded servers, the REST gateway and the metrics"
            + " endpoint free, the data folder usable, created when missing, a warning when its disk has less room than the broker"
            + " may keep), say that they are good, and exit without starting.")
    boolean check;

    @Spec
    CommandSpec spec;

    /**
     * Prints the ready line once every service is ready, or after {@link #READY_TIMEOUT} with a warning that says
     * which checks are down; nothing when a stop was asked for meanwhile. A service that could not start (a Redis monitor
     * plugin whose factory failed, once Redis answered) is said on standard error instead, and false returned: the
     * cluster then stops, as it does when a service refuses its settings.
     */
    private boolean announceReady(StandaloneCluster cluster) throws InterruptedException {
        HealthReport ready = cluster.awaitReady(READY_TIMEOUT, ShutdownSignal::jvmIsShuttingDown);
        if (ShutdownSignal.jvmIsShuttingDown()) {
            return true;
        }
        HealthReport live = cluster.liveness();
        if (!live.isUp()) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": a service could not start, so the cluster stops: "
                    + live.downChecks());
            spec.commandLine().getErr().flush();
            return false;
        }
        if (!ready.isUp()) {
            LOG.atWarn().addKeyValue("checks", ready.toJson()).log("Not every service is ready after {} s; requests they cannot "
                    + "take yet are refused until they are", READY_TIMEOUT.toSeconds());
        }
        spec.commandLine().getOut().println(cluster.readyLine());
        spec.commandLine().getOut().flush();
        return true;
    }

    @Override
    public Integer call() {
        SettingsGroup settings = options.loadAll();
        if (check) {
            // what the check loads (plugins, pipelines, ...) is not news: its warnings and errors are
            configureLogging(settings, config -> config.atLeast(Level.WARN));
        } else {
            configureLogging(settings);
        }
        int nodes = crawlers != null ? crawlers : settings.service("standalone").getInt("STANDALONE_CRAWLERS");
        if (check) {
            EmbeddedStack.warnOfShortResources(StandaloneCluster.check(settings, nodes, serviceFactories()));
            spec.commandLine().getOut().println(CheckOption.GOOD);
            spec.commandLine().getOut().flush();
            return 0;
        }
        int status = 0;
        try (ShutdownSignal signal = ShutdownSignal.install(StandaloneCluster.SHUTDOWN_GRACE)) {
            Optional<StandaloneCluster> started = startUnlessStopped(() -> StandaloneCluster.start(settings, nodes,
                    serviceFactories(), ShutdownSignal::jvmIsShuttingDown), ShutdownSignal::jvmIsShuttingDown);
            if (started.isPresent()) {
                try (StandaloneCluster cluster = started.get()) {
                    if (announceReady(cluster)) {
                        signal.await();
                        LOG.info("Stopping Scrapy Cluster");
                    } else {
                        status = 1;
                    }
                } catch (InterruptedException e) {
                    LOG.info("Stopping Scrapy Cluster (interrupted)");
                }
            }
            // Logged before the signal is closed: once it is, a signalled JVM exits at once.
            LOG.info("Scrapy Cluster stopped");
        }
        return status;
    }

    /** The services of the jar, one factory each (the crawler, the monitors, the REST gateway). */
    static List<ServiceFactory> serviceFactories() {
        return ServiceLoader.load(ServiceFactory.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /**
     * Runs {@code start}. When it fails because a stop cut it short ({@code stopping}: Ctrl-C or SIGTERM during
     * start-up, the embedded Redis loading its file, say), says so in one line and returns empty: what had started is
     * closed by then. An Error counts too: the embedded broker fails with one when the JVM is already stopping, as its
     * metrics cannot register their shutdown hook any more. A failure while no stop was asked for is the start's own,
     * and is thrown.
     */
    static <T> Optional<T> startUnlessStopped(Supplier<T> start, BooleanSupplier stopping) {
        try {
            return Optional.of(start.get());
        } catch (RuntimeException | Error e) {
            if (!stopping.getAsBoolean()) {
                throw e;
            }
            LOG.atInfo().addKeyValue("reason", message(e)).log("Stopped before every service had started");
            return Optional.empty();
        }
    }

    /** The message of {@code failure}, or of the first cause that has one (an ExceptionInInitializerError has none). */
    private static String message(Throwable failure) {
        Throwable cause = failure;
        while (cause.getMessage() == null && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return Objects.requireNonNullElse(cause.getMessage(), cause.toString());
    }

    /** The process's logging, from {@code standalone}'s settings, with every service's logger name. */
    static void configureLogging(SettingsGroup settings) {
        configureLogging(settings, UnaryOperator.identity());
    }

    private static void configureLogging(SettingsGroup settings, UnaryOperator<LogConfig> adjusted) {
        Settings own = settings.service("standalone");
        Logging.configure(adjusted.apply(LogConfig.from(own)), Logging.namesFor(own.getString("LOGGER_NAME"), servicesOf(settings)));
    }

    private static Map<String, Settings> servicesOf(SettingsGroup settings) {
        Map<String, Settings> services = new LinkedHashMap<>();
        settings.services().forEach(name -> services.put(name, settings.service(name)));
        return services;
    }
}
