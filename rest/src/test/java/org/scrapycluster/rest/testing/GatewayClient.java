package org.scrapycluster.rest.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A real HTTP client for the gateway under test (java.net.http). */
public final class GatewayClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** What the gateway answered. */
    public record Reply(int status, String contentType, String body, HttpResponse<byte[]> response) {

        /** The body as JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("the body is not JSON: " + body, e);
            }
        }

        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }
    }

    private final URI base;
    private final String authorization;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    public GatewayClient(URI base) {
        this(base, null);
    }

    private GatewayClient(URI base, String authorization) {
        this.base = base;
        this.authorization = authorization;
    }

    /** A client of the same gateway that presents {@code key} as {@code Authorization: Bearer <key>}. */
    public GatewayClient withKey(String key) {
        return new GatewayClient(base, "Bearer " + key);
    }

    public URI base() {
        return base;
    }

    public Reply get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    /** POSTs {@code json} as {@code application/json}. */
    public Reply postJson(String path, String json) {
        return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** POSTs {@code body} with {@code contentType} (none when null). */
    public Reply post(String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /** Sends {@code method} with {@code body} and {@code contentType}. */
    public Reply method(String method, String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /** Sends {@code request}, with this client's key when it has one. */
    public Reply send(HttpRequest.Builder request) {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<byte[]> response = client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    new String(response.body(), StandardCharsets.UTF_8), response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
