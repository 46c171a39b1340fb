package org.scrapycluster.rest.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A reverse proxy on 127.0.0.1 that serves a gateway under a path prefix, as a site's proxy may:
 * {@code <prefix>/x} is the gateway's {@code /x}, any other path is 404. The request's method, body,
 * {@code Authorization} and {@code Content-Type} go to the gateway; its status, body,
 * {@code Content-Type} and {@code Location} come back, the {@code Location} as the gateway wrote it.
 */
public final class PrefixProxy implements AutoCloseable {

    private static final List<String> REQUEST_HEADERS = List.of("Authorization", "Content-Type");
    private static final List<String> ANSWER_HEADERS = List.of("Content-Type", "Location");

    private final String prefix;
    private final URI gateway;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newHttpClient();

    private PrefixProxy(String prefix, URI gateway) {
        this.prefix = prefix;
        this.gateway = gateway;
        try {
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext(prefix + "/", this::forward);
        server.start();
    }

    /** Serves {@code gateway} (its base URI) under {@code prefix}, such as {@code /scrapy}. */
    public static PrefixProxy start(String prefix, URI gateway) {
        return new PrefixProxy(prefix, gateway);
    }

    /** The proxy's address for {@code path} of the gateway, such as {@code /ui/}. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + prefix + path);
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI asked = exchange.getRequestURI();
            String path = asked.getRawPath().substring(prefix.length()) + (asked.getRawQuery() == null ? "" : "?" + asked.getRawQuery());
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path)).method(exchange.getRequestMethod(),
                    body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String name : REQUEST_HEADERS) {
                String value = exchange.getRequestHeaders().getFirst(name);
                if (value != null) {
                    request.header(name, value);
                }
            }
            HttpResponse<byte[]> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            for (String name : ANSWER_HEADERS) {
                answer.headers().firstValue(name).ifPresent(value -> exchange.getResponseHeaders().set(name, value));
            }
            exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
            exchange.getResponseBody().write(answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        client.close();
        threads.close();
    }
}
