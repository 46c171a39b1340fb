package org.scrapycluster.common.service;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.scrapycluster.common.cache.ProcessCaches;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.metrics.MetricsServer;
import org.scrapycluster.common.metrics.ProcessMetrics;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs services in this process: one metrics registry and one {@code /metrics} + {@code /health}
 * endpoint for all of them (which also report the process's caches, sized by {@code CACHE_MAX_ENTRIES}),
 * one node identity, and a context per service. Closing the host
 * stops the services together, then closes the endpoint.
 */
public final class ServiceHost implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceHost.class);

    private final ProcessMetrics metrics;
    private final HealthRegistry health;
    private final NodeIdentity node;
    private final Clock clock;
    private final MetricsServer server;
    private final Deque<Service> running = new ArrayDeque<>();
    private boolean closed;

    private ServiceHost(ProcessMetrics metrics, HealthRegistry health, NodeIdentity node, Clock clock, MetricsServer server) {
        this.metrics = metrics;
        this.health = health;
        this.node = node;
        this.clock = clock;
        this.server = server;
    }

    /**
     * A host whose endpoint listens where {@code settings}' {@code METRICS_HOST} and
     * {@code METRICS_PORT} say (none for port -1), for a node with a fresh identity.
     */
    public static ServiceHost start(Settings settings) {
        ProcessMetrics metrics = new ProcessMetrics();
        HealthRegistry health = new HealthRegistry(metrics.registry());
        ProcessCaches.configure(settings, metrics.registry());
        try {
            MetricsServer server = MetricsServer.start(settings, metrics.registry(), health).orElse(null);
            return new ServiceHost(metrics, health, NodeIdentity.create(), Clock.systemUTC(), server);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
    }

    /** A context for a service with {@code settings}, its health checks named {@code <service>.<check>}. */
    public ServiceContext context(Settings settings) {
        return context(settings, settings.service());
    }

    /**
     * A context for one instance of a service that runs several times in this process (crawlers
     * in standalone): its meters are tagged with the service, its health checks named
     * {@code <instance>.<check>}. An instance named other than its service is a node of its own
     * (this host, a fresh uuid12), as it would be in a process of its own: its heartbeat key and
     * the meters tagged with its node are its own, not shared with the other instances.
     */
    public ServiceContext context(Settings settings, String instance) {
        NodeIdentity instanceNode = instance.equals(settings.service()) ? node
                : new NodeIdentity(node.hostname(), NodeIdentity.newUuid12());
        return new ServiceContext(settings, metrics.forService(settings.service()), metrics.registry(),
                health.scoped(instance), instanceNode, clock);
    }

    /** Starts {@code service}; it is closed with the host. */
    public synchronized void run(Service service) {
        if (closed) {
            throw new IllegalStateException("the host is closed");
        }
        service.start();
        running.push(service);
        LOG.atInfo().addKeyValue("service", service.name()).log("Started " + service.name());
    }

    /** Runs the dependency and readiness checks of every service in this process, as {@code /health/ready} does. */
    public HealthReport readiness() {
        return health.checkReady();
    }

    /**
     * Runs the liveness checks of every service in this process, as {@code /health/live} does: down when a service could
     * not start (it stays down until restarted) or its loop has ended.
     */
    public HealthReport liveness() {
        return health.checkLive();
    }

    /** Where the metrics and health endpoint listens, when it does. */
    public Optional<InetSocketAddress> metricsAddress() {
        return Optional.ofNullable(server).map(MetricsServer::address);
    }

    /**
     * Closes every service, then the endpoint and the registry. The services stop together, each on a thread of its own,
     * as the processes of a cluster do when it is stopped (docs/operations.md, "Stopping"): each bounds its own stop
     * within its shutdown grace, so several services in one process (standalone) stop within the longest of those, not
     * their sum. This waits for every stop to end.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Thread> stopping = new ArrayList<>();
        while (!running.isEmpty()) {
            Service service = running.pop();
            stopping.add(Thread.ofPlatform().name("stop-" + service.name()).start(() -> stop(service)));
        }
        stopping.forEach(ServiceHost::awaitStopped);
        if (server != null) {
            server.close();
        }
        metrics.close();
    }

    private static void stop(Service service) {
        try {
            service.close();
            LOG.atInfo().addKeyValue("service", service.name()).log("Closed " + service.name());
        } catch (RuntimeException e) {
            LOG.atError().addKeyValue("service", service.name()).setCause(e).log("Could not close " + service.name() + " cleanly");
        }
    }

    /** Waits for a service's stop to end; an interrupt does not cut it short, and is kept for the caller. */
    private static void awaitStopped(Thread stopping) {
        boolean interrupted = false;
        while (stopping.isAlive()) {
            try {
                stopping.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
