package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;

/**
 * The probes an orchestrator uses, on a Kafka monitor's metrics port: while its Redis is stopped,
 * {@code /health/live} stays 200 (a restart would not bring Redis back) and {@code /health/ready}
 * answers 503; once Redis is back, ready is 200 again. {@code /health} keeps answering as before.
 */
@ExtendWith(SharedStack.class)
class HealthEndpointsTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    private final EmbeddedStack stack;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    HealthEndpointsTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void liveStaysUpWhileReadyFollowsRedis() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("health-redis"))) {
            Settings settings = MonitorSettings.forStack(stack, redis.port())
                    .set("METRICS_HOST", "127.0.0.1").set("METRICS_PORT", "0").build();
            try (ServiceHost host = ServiceHost.start(settings)) {
                host.run(new KafkaMonitor(host.context(settings)));
                InetSocketAddress address = host.metricsAddress().orElseThrow();
                Awaitility.await().atMost(WAIT).until(() -> status(address, "/health/ready") == 200);
                assertEquals(200, status(address, "/health/live"));
                assertEquals(200, status(address, "/health"));

                redis.stop();
                Awaitility.await().atMost(WAIT).until(() -> status(address, "/health/ready") == 503);
                assertEquals(200, status(address, "/health/live"), "a dependency away never fails liveness");
                assertEquals(503, status(address, "/health"));

                redis.restart();
                Awaitility.await().atMost(WAIT).until(() -> status(address, "/health/ready") == 200);
                assertEquals(200, status(address, "/health/live"));
            }
        }
    }

    private int status(InetSocketAddress address, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .timeout(Duration.ofSeconds(10)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
