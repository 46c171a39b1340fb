package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;

/**
 * The head of a request is checked once, through a real server: the key a request presents is looked at
 * ({@link Callers#identify}) before its body is read and not again when it is answered, whether it is let
 * through or refused.
 */
class AdmissionTest {

    private final AtomicInteger identified = new AtomicInteger();
    private final Callers callers = key -> {
        identified.incrementAndGet();
        return "w".equals(key) ? new Caller(Access.WRITE, false, "0000000w") : new Caller(Access.NONE, false, null);
    };
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http = HttpClient.newHttpClient();
    private GatewayServer server;

    @BeforeEach
    void start() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Envelope envelope = new Envelope(new Json(new JsonLimits(64, 1_000_000, 1_048_576)));
        Router router = Router.builder()
                .open("/health")
                .route("/health", "health", call -> envelope.success(null), HttpMethod.GET)
                .route("/change", "change", call -> envelope.success(null), HttpMethod.POST)
                .build();
        Dispatcher dispatcher = new Dispatcher(router, callers, AllowedHosts.of(InetAddress.getLoopbackAddress(), List.of()),
                envelope, new HttpMetrics(meters), false);
        server = GatewayServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new ServerLimits(1_048_576, Duration.ofMinutes(1), Duration.ofSeconds(30), 16, 4), dispatcher, executor, meters);
    }

    @AfterEach
    void stop() {
        server.close(Duration.ofSeconds(5));
        executor.close();
        http.close();
    }

    @Test
    void aKeyLetThroughIsLookedAtOnce() throws Exception {
        assertEquals(200, post("w").statusCode());
        assertEquals(1, identified.get());
    }

    @Test
    void aKeyRefusedOnTheHeadIsLookedAtOnce() throws Exception {
        assertEquals(401, post("wrong").statusCode());
        assertEquals(1, identified.get());
    }

    @Test
    void anOpenPathLooksAtNoKey() throws Exception {
        HttpRequest health = HttpRequest.newBuilder(base().resolve("/health")).header("X-Api-Key", "w").GET().build();
        assertEquals(200, http.send(health, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(0, identified.get());
    }

    private HttpResponse<String> post(String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base().resolve("/change")).header("X-Api-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI base() {
        InetSocketAddress address = server.address();
        return URI.create("http://" + address.getHostString() + ":" + address.getPort());
    }
}
