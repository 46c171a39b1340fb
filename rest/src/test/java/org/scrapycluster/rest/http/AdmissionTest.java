package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

import com.fasterxml.jackson.databind.node.TextNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.domain.AllowedHosts;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.rest.access.AccessEndpoint;

/**
 * The head of a request is checked once, through a real server: the key a request presents is looked at
 * ({@link Callers#identify}) before its body is read and not again when it is answered, whether it is let
 * through or refused, nor when its endpoint asks who the caller is ({@code /access}); on an open path, only when its
 * endpoint asks ({@code /health}).
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
                .open("/ui")
                // as the gateway's /health and /access do: an answer that depends on the caller
                .route("/health", "health", call -> envelope.success(TextNode.valueOf(call.caller().access().label())),
                        HttpMethod.GET)
                .route("/access", "access", new AccessEndpoint(envelope), HttpMethod.GET)
                .route("/ui", "ui", call -> envelope.success(null), HttpMethod.GET)
                .route("/change", "change", call -> envelope.success(null), HttpMethod.POST)
                .build();
        Dispatcher dispatcher = new Dispatcher(router, callers, AllowedHosts.of(InetAddress.getLoopbackAddress(), List.of()),
                envelope, new HttpMetrics(meters), false);
        server = GatewayServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new ServerLimits(1_048_576, Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(60),
                        Duration.ofSeconds(120), 16, 4), null, dispatcher, executor, meters);
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
    void anOpenPathLooksAtNoKeyItsEndpointDoesNotAskFor() throws Exception {
        assertEquals(200, get("/ui", "w").statusCode());
        assertEquals(0, identified.get());
    }

    @Test
    void anOpenPathThatAsksWhoCallsLooksAtTheKeyOnce() throws Exception {
        HttpResponse<String> health = get("/health", "w");
        assertEquals(200, health.statusCode());
        assertTrue(health.body().contains("\"data\":\"write\""), health.body());
        assertEquals(1, identified.get());
        assertTrue(get("/health", "wrong").body().contains("\"data\":\"none\""));
        assertEquals(2, identified.get());
    }

    @Test
    void accessAnswersFromTheKeyLookedAtOnItsHead() throws Exception {
        HttpResponse<String> access = get("/access", "w");
        assertEquals(200, access.statusCode());
        assertTrue(access.body().contains("\"access\":\"write\""), access.body());
        assertEquals(1, identified.get());
        assertEquals(401, get("/access", "wrong").statusCode());
        assertEquals(2, identified.get());
    }

    private HttpResponse<String> get(String path, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base().resolve(path)).header("X-Api-Key", key).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
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
