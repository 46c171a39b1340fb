package org.scrapycluster.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;

class MetricsServerTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private final ProcessMetrics metrics = new ProcessMetrics();
    private final HealthRegistry health = new HealthRegistry();

    @AfterEach
    void close() {
        metrics.close();
        http.close();
    }

    @Test
    void servesPrometheusTextWithEachServicesTag() throws Exception {
        MeterRegistry monitor = metrics.forService("kafka-monitor");
        MeterRegistry crawler = metrics.forService("crawler");
        monitor.counter("scrapy_requests_total", "outcome", "valid").increment(3);
        crawler.counter("scrapy_requests_total", "outcome", "valid").increment(2);

        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(), metrics.registry(), health)) {
            HttpResponse<String> response = get(server, "/metrics");
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain; version=0.0.4"));
            String body = response.body();
            assertTrue(body.contains("scrapy_requests_total{outcome=\"valid\",service=\"kafka-monitor\"} 3.0"), body);
            assertTrue(body.contains("scrapy_requests_total{outcome=\"valid\",service=\"crawler\"} 2.0"), body);
            assertTrue(body.contains("jvm_memory_used_bytes"), "the JVM's meters are there too");
        }
    }

    /** A page that points its own name at 127.0.0.1 (DNS rebinding) cannot read the endpoint as its own site; the address can. */
    @Test
    void onLoopbackOnlyAddressesAndLocalhostAreAnswered() throws Exception {
        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(), metrics.registry(), health)) {
            assertEquals("HTTP/1.1 403 Forbidden", statusLine(server, "attacker.example:" + server.address().getPort()));
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "127.0.0.1:" + server.address().getPort()));
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "localhost"));
        }
    }

    /** A name listed in METRICS_ALLOWED_HOSTS is answered as well; others still are not. */
    @Test
    void listedNamesAreAnsweredToo() throws Exception {
        Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_PORT", "0", "METRICS_HOST", "127.0.0.1", "METRICS_ALLOWED_HOSTS", "[metrics.internal]")));
        try (MetricsServer server = MetricsServer.start(settings, metrics.registry(), health).orElseThrow()) {
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "Metrics.Internal:" + server.address().getPort()));
            assertEquals("HTTP/1.1 403 Forbidden", statusLine(server, "attacker.example:" + server.address().getPort()));
        }
    }

    /**
     * A listed name is read as the Host header a browser sends: a trailing dot, a Unicode name and a port match; one that
     * is no host name stops the start with an error naming the setting. (Before, "metrics.internal." and "bücher.example"
     * were kept as written, so no call was ever answered for them.)
     */
    @Test
    void listedNamesAreReadAsBrowsersSendThem() throws Exception {
        Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(), Map.of("METRICS_PORT", "0",
                "METRICS_HOST", "127.0.0.1", "METRICS_ALLOWED_HOSTS", "[metrics.internal., bücher.example, prom.internal:9090]")));
        try (MetricsServer server = MetricsServer.start(settings, metrics.registry(), health).orElseThrow()) {
            int port = server.address().getPort();
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "metrics.internal:" + port));
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "metrics.internal.:" + port));
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "xn--bcher-kva.example:" + port));
            assertEquals("HTTP/1.1 200 OK", statusLine(server, "prom.internal:" + port));
            assertEquals("HTTP/1.1 403 Forbidden", statusLine(server, "attacker.example:" + port));
        }
        SettingsException bad = assertThrows(SettingsException.class, () -> MetricsServer.start(Settings.load("redis-monitor",
                new SettingsSources(null, Map.of(), Map.of("METRICS_PORT", "0", "METRICS_HOST", "127.0.0.1",
                        "METRICS_ALLOWED_HOSTS", "[metrics internal]"))), metrics.registry(), health));
        assertTrue(bad.getMessage().startsWith("Setting METRICS_ALLOWED_HOSTS (from the command line) lists 'metrics internal', "
                + "which is not a host name"), bad.getMessage());
    }

    /**
     * On a non-loopback address the names are checked once some are listed, so that a scraper naming its targets
     * (kafka-monitor:5344) keeps working by default; addresses, as Kubernetes pod discovery sends, always are answered.
     */
    @Test
    void elsewhereNamesAreCheckedOnceListed() throws Exception {
        InetSocketAddress everywhere = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0);
        try (MetricsServer open = MetricsServer.start(everywhere, List.of(), metrics.registry(), health);
                MetricsServer listed = MetricsServer.start(everywhere, List.of("kafka-monitor"), metrics.registry(), health)) {
            assertEquals("HTTP/1.1 200 OK", statusLine(open, "kafka-monitor:5344"));
            assertEquals("HTTP/1.1 200 OK", statusLine(listed, "kafka-monitor:5344"));
            assertEquals("HTTP/1.1 200 OK", statusLine(listed, "10.1.2.3:5344"));
            assertEquals("HTTP/1.1 403 Forbidden", statusLine(listed, "attacker.example:5344"));
        }
    }

    @Test
    void aHostThatIsNoAddressOfThisHostIsThatSettingsError() {
        for (String host : List.of("192.0.2.1", "no-such-host.invalid")) {
            Settings settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                    Map.of("METRICS_PORT", "0", "METRICS_HOST", host)));
            SettingsException refused = assertThrows(SettingsException.class,
                    () -> MetricsServer.start(settings, metrics.registry(), health));
            assertTrue(refused.getMessage().startsWith("Setting METRICS_HOST (from the command line) is " + host
                    + ", which is not an address of this host"), refused.getMessage());
        }
    }

    @Test
    void healthIsOkOnlyWhenEveryCheckIsUp() throws Exception {
        AtomicBoolean redisUp = new AtomicBoolean(true);
        health.scoped("kafka-monitor").register("redis", () -> redisUp.get() ? Health.up() : Health.down("connection refused"));
        health.scoped("crawler").register("zookeeper", () -> Health.up("config version 3"));

        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(), metrics.registry(), health)) {
            HttpResponse<String> up = get(server, "/health");
            assertEquals(200, up.statusCode());
            JsonNode body = new ObjectMapper().readTree(up.body());
            assertEquals("UP", body.get("status").asText());
            assertEquals("config version 3", body.at("/checks/crawler.zookeeper/detail").asText());

            redisUp.set(false);
            HttpResponse<String> down = get(server, "/health");
            assertEquals(503, down.statusCode());
            JsonNode downBody = new ObjectMapper().readTree(down.body());
            assertEquals("DOWN", downBody.get("status").asText());
            assertEquals("DOWN", downBody.at("/checks/kafka-monitor.redis/status").asText());
            assertEquals("connection refused", downBody.at("/checks/kafka-monitor.redis/detail").asText());
            assertEquals("UP", downBody.at("/checks/crawler.zookeeper/status").asText());

            health.register("broken", () -> {
                throw new IllegalStateException("boom");
            });
            redisUp.set(true);
            assertEquals(503, get(server, "/health").statusCode(), "a check that throws is down");

            assertEquals(404, get(server, "/nothing").statusCode());
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(server, "/health"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
        }
    }

    @Test
    void liveRunsTheLivenessChecksAndReadyTheDependencyAndReadinessChecks() throws Exception {
        HealthRegistry exported = new HealthRegistry(metrics.registry());
        AtomicBoolean redisUp = new AtomicBoolean(false);
        AtomicBoolean loopUp = new AtomicBoolean(true);
        AtomicBoolean inGroup = new AtomicBoolean(true);
        HealthRegistry monitor = exported.scoped("kafka-monitor");
        monitor.register("redis", () -> redisUp.get() ? Health.up() : Health.down("connection refused"));
        monitor.register("loop", HealthRegistry.Kind.LIVENESS, () -> loopUp.get() ? Health.up() : Health.down("ended"));
        monitor.register("group", HealthRegistry.Kind.READINESS, () -> inGroup.get() ? Health.up() : Health.down("joining"));
        try (MetricsServer server = MetricsServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(), metrics.registry(), exported)) {
            assertEquals(200, get(server, "/health/live").statusCode(), "a dependency away does not fail liveness");
            assertEquals(503, get(server, "/health/ready").statusCode());
            assertTrue(get(server, "/metrics").body().contains("health_check{check=\"kafka-monitor.redis\",kind=\"dependency\"} 0.0"));

            redisUp.set(true);
            assertEquals(200, get(server, "/health/ready").statusCode());
            inGroup.set(false);
            assertEquals(503, get(server, "/health/ready").statusCode(), "readiness checks count for ready");
            assertEquals(200, get(server, "/health").statusCode(), "/health runs the dependency checks only");
            loopUp.set(false);
            HttpResponse<String> dead = get(server, "/health/live");
            assertEquals(503, dead.statusCode());
            assertEquals("ended", new ObjectMapper().readTree(dead.body()).get("checks").get("kafka-monitor.loop").get("detail").asText());
        }
    }

    @Test
    void thePortComesFromSettings() throws Exception {
        Optional<MetricsServer> off = MetricsServer.start(settings("-1"), metrics.registry(), health);
        assertTrue(off.isEmpty());

        try (MetricsServer server = MetricsServer.start(settings("0"), metrics.registry(), health).orElseThrow()) {
            assertEquals(200, get(server, "/health").statusCode());
            SettingsException taken = assertThrows(SettingsException.class, () -> MetricsServer.start(
                    settings(Integer.toString(server.address().getPort())), metrics.registry(), health));
            assertTrue(taken.getMessage().startsWith("Setting METRICS_PORT (from the command line) is "), taken.getMessage());
        }
    }

    private static Settings settings(String port) {
        return Settings.load("redis-monitor", new SettingsSources(null, Map.of(),
                Map.of("METRICS_PORT", port, "METRICS_HOST", "127.0.0.1")));
    }

    private HttpResponse<String> get(MetricsServer server, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(server, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(MetricsServer server, String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    /** The status line answering {@code GET /metrics} with {@code Host: host}, which the JDK's client cannot send. */
    private static String statusLine(MetricsServer server, String host) throws IOException {
        InetAddress bound = server.address().getAddress();
        try (Socket socket = new Socket(bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound, server.address().getPort())) {
            socket.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }
}
