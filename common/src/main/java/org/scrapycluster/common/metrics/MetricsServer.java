package org.scrapycluster.common.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.common.net.LocalAddresses;
import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.settings.Settings;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * A small HTTP server: {@code GET /metrics} answers the Prometheus text format, {@code GET
 * /health} answers {@code {"status":"UP","checks":{"redis":{"status":"UP","detail":""}}}} with
 * 200 when every dependency check is up and 503 otherwise; {@code /health/live} and
 * {@code /health/ready} answer the same way for the liveness and readiness checks of
 * {@link HealthRegistry}. It has no keys; on a loopback address, and on any other once names are listed in
 * {@code METRICS_ALLOWED_HOSTS}, it answers only a {@code Host} that is an address, {@code localhost} or a listed
 * name, so that a web page cannot read it by pointing its own name there ({@link AllowedHosts}, docs/security.md).
 */
public final class MetricsServer implements AutoCloseable {

    /** The content type of {@link PrometheusMeterRegistry#scrape()}'s text. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String JSON = "application/json";

    private final HttpServer server;
    private final ExecutorService executor;
    private final PrometheusMeterRegistry registry;
    private final HealthRegistry health;
    private final AllowedHosts hosts;

    private MetricsServer(HttpServer server, ExecutorService executor, PrometheusMeterRegistry registry, HealthRegistry health,
            List<String> allowedHosts) {
        this.server = server;
        this.executor = executor;
        this.registry = registry;
        this.health = health;
        this.hosts = AllowedHosts.of(server.getAddress().getAddress(), allowedHosts);
    }

    /**
     * Starts the endpoint on {@code METRICS_HOST}:{@code METRICS_PORT} ({@link #address}), answering the host names of
     * {@code METRICS_ALLOWED_HOSTS}, or nothing when the port is -1. A port in use is a start-up error naming the setting.
     */
    public static Optional<MetricsServer> start(Settings settings, PrometheusMeterRegistry registry, HealthRegistry health) {
        Optional<InetSocketAddress> address = address(settings);
        if (address.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(start(address.get(), AllowedHosts.listed(settings, "METRICS_ALLOWED_HOSTS"), registry, health));
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof BindException) {
                throw settings.invalid("METRICS_PORT", "is " + address.get().getPort() + ", which cannot be bound on "
                        + address.get().getHostString() + " (" + e.getCause().getMessage()
                        + "); choose another port, 0 for any free one, or -1 for none");
            }
            throw e;
        }
    }

    /**
     * Where the endpoint of {@code settings} listens, {@code METRICS_HOST}:{@code METRICS_PORT}, checked as a start and a
     * {@code --check} check it; empty when the port is -1 (no endpoint).
     *
     * @throws org.scrapycluster.common.settings.SettingsException for a port out of range, or a host that is not an
     *                                                             address of this host
     */
    public static Optional<InetSocketAddress> address(Settings settings) {
        int port = settings.getInt("METRICS_PORT");
        if (port == -1) {
            return Optional.empty();
        }
        if (!Port.isListenable(port)) {
            throw settings.invalid("METRICS_PORT", "is " + port + "; use a port, 0 for any free one, or -1 for none");
        }
        String host = settings.getString("METRICS_HOST");
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (!LocalAddresses.isOfThisHost(address)) {
            throw settings.invalid("METRICS_HOST", "is " + host + ", which is not an address of this host; use one of its"
                    + " addresses, 127.0.0.1 for this host alone, or 0.0.0.0 for all");
        }
        return Optional.of(address);
    }

    /**
     * Starts the endpoint on {@code address} (port 0 picks a free one).
     *
     * @param allowedHosts host names a call's {@code Host} header may give besides addresses and {@code localhost}
     *                     ({@link AllowedHosts}); listing any makes an endpoint on a non-loopback address check them
     */
    public static MetricsServer start(InetSocketAddress address, List<String> allowedHosts, PrometheusMeterRegistry registry,
            HealthRegistry health) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + address, e);
        }
        ExecutorService executor = Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon().name("metrics-http-", 1).factory());
        MetricsServer metrics = new MetricsServer(server, executor, registry, health, allowedHosts);
        server.setExecutor(executor);
        server.createContext("/", metrics::handle);
        server.start();
        return metrics;
    }

    /** The address the endpoint listens on, with the port actually bound. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!hosts.allows(exchange.getRequestHeaders().getFirst("Host"))) {
                send(exchange, 403, "text/plain; charset=utf-8",
                        "Host not allowed; call this endpoint by its address or localhost, or add the name to METRICS_ALLOWED_HOSTS\n");
                return;
            }
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "Method not allowed\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case "/metrics" -> send(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
                case "/health" -> sendHealth(exchange, health.check());
                case "/health/live" -> sendHealth(exchange, health.checkLive());
                case "/health/ready" -> sendHealth(exchange, health.checkReady());
                default -> send(exchange, 404, "text/plain; charset=utf-8",
                        "Not found; try /metrics, /health, /health/live or /health/ready\n");
            }
        }
    }

    private static void sendHealth(HttpExchange exchange, HealthReport report) throws IOException {
        send(exchange, report.httpStatus(), JSON, report.toJson());
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
