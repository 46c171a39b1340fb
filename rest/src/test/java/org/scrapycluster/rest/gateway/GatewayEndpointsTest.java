package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.RunningGateway;

/** What the gateway serves besides the API: {@code /metrics}, {@code /health}, the web UI, and its heartbeat in Redis. */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayEndpointsTest {

    private static final int HEARTBEAT_TIMEOUT = 30;

    private RunningGateway gateway;
    private RedisConnection redis;

    @BeforeAll
    void start(EmbeddedStack stack) {
        gateway = RunningGateway.start(GatewaySettings.forStack(stack).set("HEARTBEAT_TIMEOUT", Integer.toString(HEARTBEAT_TIMEOUT))
                .set("SLEEP_TIME", "1").build()).awaitGreen();
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
    }

    @AfterAll
    void stop() {
        gateway.close();
        redis.close();
    }

    @Test
    void metricsInPrometheusText() {
        gateway.client().get("/");
        GatewayClient.Reply metrics = gateway.client().get("/metrics");
        assertEquals(200, metrics.status());
        assertTrue(metrics.contentType().startsWith("text/plain; version=0.0.4"), metrics.contentType());
        assertTrue(metrics.body().contains("rest_requests_total{endpoint=\"index\",service=\"rest\",status=\"200\"}"), metrics.body());
        assertTrue(metrics.body().contains("rest_requests_refused_total{reason=\"malformed_json\",service=\"rest\"}"), metrics.body());
        assertTrue(metrics.body().contains("rest_request_duration_seconds_bucket{endpoint=\"index\",service=\"rest\",le=\"0.005\"}"),
                metrics.body());
        assertTrue(metrics.body().contains("rest_request_duration_seconds_count{endpoint=\"index\",service=\"rest\"}"), metrics.body());
        assertTrue(metrics.body().contains("rest_feed_waiting{service=\"rest\"}"), metrics.body());
    }

    @Test
    void healthOfKafkaAndRedis() {
        GatewayClient.Reply health = gateway.client().get("/health");
        assertEquals(200, health.status());
        JsonNode checks = health.json().get("checks");
        assertEquals("UP", health.json().get("status").asText());
        assertEquals("UP", checks.get("rest.kafka").get("status").asText());
        assertEquals("UP", checks.get("rest.redis").get("status").asText());
        assertEquals(200, gateway.client().get("/health/ready").status());
        assertEquals(200, gateway.client().get("/health/live").status());
    }

    @Test
    void heartbeatAsOtherServices() {
        String key = "stats:rest:self:" + gateway.context().node();
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().get(key) != null);
        long ttl = redis.sync().ttl(key);
        assertTrue(ttl > 0 && ttl <= HEARTBEAT_TIMEOUT, "HEARTBEAT_TIMEOUT applies, was " + ttl);
        assertTrue(redis.sync().get(key).matches("\\d+\\.\\d{6}"), redis.sync().get(key));
    }

    @Test
    void webUiFromTheClassPath() {
        GatewayClient.Reply redirect = gateway.client().get("/ui");
        assertEquals(301, redirect.status());
        // relative, which holds under a proxy's path prefix too
        assertEquals("ui/", redirect.header("Location"));
        GatewayClient.Reply page = gateway.client().get("/ui/");
        assertEquals(200, page.status());
        assertEquals("text/html; charset=utf-8", page.contentType());
        assertTrue(page.body().contains("<title>Scrapy Cluster</title>"), page.body());
        for (String file : List.of("app.js", "app.css")) {
            GatewayClient.Reply asset = gateway.client().get("/ui/" + file);
            assertEquals(200, asset.status(), file);
            assertTrue(page.body().contains("\"" + file + "\""), "the page loads " + file);
        }
        assertEquals("text/javascript; charset=utf-8", gateway.client().get("/ui/app.js").contentType());
        assertEquals(404, gateway.client().get("/ui/index.htm").status());
    }

    @Test
    void noAnswerIsStoredByACacheOrSniffedByABrowserButTheWebUisFilesAreRevalidated() {
        // answers depend on the key presented: a shared cache must not hand one caller's to another
        List<GatewayClient.Reply> answers = List.of(gateway.client().get("/"), gateway.client().get("/access"),
                gateway.client().get("/nowhere"), gateway.client().postJson("/feed", "{not json"), gateway.client().get("/health"),
                gateway.client().get("/metrics"), gateway.client().get("/ui"));
        for (GatewayClient.Reply answer : answers) {
            String what = answer.response().request().uri() + " " + answer.status();
            assertEquals("no-store", answer.header("Cache-Control"), what);
            assertEquals("nosniff", answer.header("X-Content-Type-Options"), what);
        }
        GatewayClient.Reply file = gateway.client().get("/ui/app.js");
        assertEquals("no-cache", file.header("Cache-Control"));
        assertEquals("nosniff", file.header("X-Content-Type-Options"));
    }

    @Test
    void headIsAnsweredAsGetWithoutTheBody() {
        // a probe or an uptime checker asking HEAD gets what GET would say, headers only
        for (String path : List.of("/", "/health", "/health/live", "/ui/", "/metrics")) {
            GatewayClient.Reply get = gateway.client().get(path);
            GatewayClient.Reply head = gateway.client().send(HttpRequest.newBuilder(gateway.client().base().resolve(path))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()));
            assertEquals(get.status(), head.status(), path);
            assertEquals(get.contentType(), head.contentType(), path);
            assertEquals("", head.body(), path);
        }
        GatewayClient.Reply post = gateway.client().postJson("/health", "{}");
        assertEquals(405, post.status());
        assertEquals("GET, HEAD, OPTIONS", post.header("Allow"));
        assertEquals("GET, HEAD, OPTIONS, POST", gateway.client().method("DELETE", "/", null, new byte[0]).header("Allow"));
        assertEquals("OPTIONS, POST", gateway.client().get("/feed").header("Allow"));
    }

    @Test
    void optionsIsAnsweredWithTheMethodsOfThePath() {
        // as Flask answers it: 200, an empty body, the Allow header; no CORS headers, as there
        for (String path : List.of("/feed", "/poll", "/", "/health", "/ui/")) {
            GatewayClient.Reply options = gateway.client().method("OPTIONS", path, null, new byte[0]);
            assertEquals(200, options.status(), path);
            assertEquals("", options.body(), path);
            assertEquals(null, options.header("Access-Control-Allow-Origin"), path);
        }
        assertEquals("OPTIONS, POST", gateway.client().method("OPTIONS", "/feed", null, new byte[0]).header("Allow"));
        assertEquals("GET, HEAD, OPTIONS", gateway.client().method("OPTIONS", "/ui/app.js", null, new byte[0]).header("Allow"));
    }

    @Test
    void webUiRunsOnlyItsOwnFilesAndIsNeverFramedByAnotherSite() {
        // a page of any site could otherwise frame the UI under its own content and steer clicks
        // onto Stop and Confirm (clickjacking): keys off, on loopback, the frame acts as the user;
        // and markup that slipped into the page could run no script nor send anything elsewhere (docs/security.md)
        for (String file : List.of("", "app.js", "vendor/uPlot.iife.min.js")) {
            GatewayClient.Reply answer = gateway.client().get("/ui/" + file);
            assertEquals("default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self';"
                    + " base-uri 'none'; form-action 'self'; frame-ancestors 'none'", answer.header("Content-Security-Policy"), file);
            assertEquals("DENY", answer.header("X-Frame-Options"), file);
        }
    }
}
