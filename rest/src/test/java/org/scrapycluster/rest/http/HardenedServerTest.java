package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * The gateway against clients that try to hold more than their share, with raw sockets: a deep
 * pipeline on one connection, headers trickled a byte a second, more connections than allowed;
 * and a normal client served beside them.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HardenedServerTest {

    /** The default REST_MAX_PIPELINED_REQUESTS. */
    private static final int MAX_PIPELINED = 16;
    private static final int MAX_CONNECTIONS = 6;
    private static final int PIPELINED_REQUESTS = 10_000;
    private static final int MAX_READ_BYTES = 16384;
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration BODY_TIMEOUT = Duration.ofSeconds(5);

    /** A status line and a body. */
    private record Response(int status, String body) {
    }

    private RunningGateway gateway;
    private URI base;

    @BeforeAll
    void start(EmbeddedStack stack) {
        gateway = RunningGateway.start(GatewaySettings.forStack(stack)
                .set("REST_MAX_CONNECTIONS", Integer.toString(MAX_CONNECTIONS))
                .set("REST_HEADER_TIMEOUT", "1")
                .set("REST_BODY_TIMEOUT", Long.toString(BODY_TIMEOUT.toSeconds()))
                .set("REST_SEND_TIMEOUT", "3")
                .build());
        base = gateway.client().base();
    }

    @AfterAll
    void stop() {
        gateway.close();
    }

    @BeforeEach
    void noConnectionLeftFromTheTestBefore() {
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> openConnections() == 0);
    }

    @Test
    void aDeepPipelineIsAnsweredInFullWhileTheConnectionHoldsOnlyAFewRequests() throws Exception {
        byte[] request = ("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "x".repeat(200) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = connect()) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = new BufferedOutputStream(socket.getOutputStream(), MAX_READ_BYTES);
                    for (int i = 0; i < PIPELINED_REQUESTS; i++) {
                        out.write(request);
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            CompletableFuture<Void> normalClient = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 5; i++) {
                    assertEquals(200, exchange("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status());
                }
            });
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < PIPELINED_REQUESTS; i++) {
                Response response = read(in);
                assertEquals(200, response.status(), "answer " + i + ": " + response.body());
            }
            writer.get();
            normalClient.get();
        }
        DistributionSummary held = gateway.context().prometheus().get("rest.http.pipelined").summary();
        assertTrue(held.count() >= PIPELINED_REQUESTS, "counted " + held.count());
        // The cap being answered, plus what the last socket reads of MAX_READ_BYTES decoded: a few
        // hundred requests at most, never the client's whole stream. Without the read gate, Netty's
        // decoder would reach its pipeline depth (about 1,200) and close the connection.
        long bound = MAX_PIPELINED + 4L * MAX_READ_BYTES / request.length;
        assertTrue(held.max() <= bound, "a connection held " + held.max() + " requests; at most " + bound);
    }

    @Test
    void headersTrickledAByteASecondAreCutOffWith408() throws Exception {
        double before = refused("header_timeout");
        byte[] header = "GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        AtomicInteger sent = new AtomicInteger();
        try (Socket socket = connect()) {
            Thread trickle = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    for (byte b : header) {
                        out.write(b);
                        out.flush();
                        sent.incrementAndGet();
                        Thread.sleep(1000);
                    }
                } catch (IOException | InterruptedException e) {
                    // the gateway closed the connection, or the test is done
                }
            });
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertEquals(408, response.status(), response.body());
            assertTrue(response.body().contains("\"status\":\"FAILURE\""), response.body());
            assertEquals(-1, in.read(), "closed after the answer");
            assertTrue(sent.get() < header.length, "cut off after " + sent.get() + " of " + header.length + " bytes");
            trickle.interrupt();
        }
        assertTrue(refused("header_timeout") > before);
        assertEquals(200, exchange("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status());
    }

    /** Each byte of the body in time for the idle timeout, the whole of it not in time: 408, and closed. */
    @Test
    void aBodyTrickledAByteAtATimeIsCutOffWith408() throws Exception {
        double before = refused("body_timeout");
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread trickle = Thread.ofVirtual().start(() -> trickle(out, 99, Duration.ofMillis(500)));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertEquals(408, response.status(), response.body());
            assertTrue(response.body().contains("The request body did not arrive in time."), response.body());
            assertEquals(-1, in.read(), "closed after the answer");
            trickle.interrupt();
        }
        assertEquals(before + 1, refused("body_timeout"));
    }

    /**
     * A request refused on its headers while its body still comes is not then answered 408 for the next request's
     * headers: their time starts once the body is in, so the client reads its refusal and goes on.
     */
    @Test
    void aRequestRefusedOnItsHeadersMaySendItsBodySlowerThanTheHeaderTimeout() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("POST /feed HTTP/1.1\r\nHost: attacker.example\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            assertEquals(403, read(in).status());

            trickle(out, 8, Duration.ofMillis(400)); // 3.2 s: beyond REST_HEADER_TIMEOUT, within REST_BODY_TIMEOUT
            out.write("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Response next = read(in);
            assertEquals(200, next.status(), next.body());
        }
    }

    /**
     * A client that pipelines requests for large answers and never reads them is closed once an answer has waited
     * REST_SEND_TIMEOUT for it to take it: the gateway does not read it meanwhile, so no other timeout runs.
     */
    @Test
    void aClientThatNeverTakesItsAnswersIsClosed() throws Exception {
        Response large = exchange("GET /ui/vendor/uPlot.iife.min.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertEquals(200, large.status());
        assertTrue(large.body().length() > 40_000, "an answer of " + large.body().length() + " characters");
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(2048);
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()));
            byte[] request = "GET /ui/vendor/uPlot.iife.min.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 200; i++) { // about 10 MB of answers, more than the sockets' buffers hold
                out.write(request);
            }
            out.flush();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> openConnections() == 1);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> openConnections() == 0);
        }
    }

    @Test
    void connectionsBeyondTheCapAreAnswered503AndClosedUntilOneIsFree() throws Exception {
        double before = refused("too_many_connections");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                held.add(holdOpen());
            }
            try (Socket extra = connect()) {
                InputStream in = new BufferedInputStream(extra.getInputStream());
                Response response = read(in);
                assertEquals(503, response.status(), response.body());
                assertTrue(response.body().contains("too many open connections"), response.body());
                assertEquals(-1, in.read(), "closed after the answer");
            }
            assertEquals(before + 1, refused("too_many_connections"));
            held.remove(0).close();
            Awaitility.await().atMost(Duration.ofMinutes(1)).ignoreExceptions()
                    .until(() -> exchange("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status() == 200);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    /**
     * A connection the gateway surely counts and keeps for REST_BODY_TIMEOUT: a request answered, then the headers of a
     * POST whose body never comes (sent in the same write, so the header timeout never starts).
     */
    private Socket holdOpen() throws IOException {
        Socket socket = connect();
        socket.getOutputStream().write(("GET /access HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + "POST /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, read(new BufferedInputStream(socket.getInputStream())).status());
        return socket;
    }

    /** Writes {@code bytes} spaces to {@code out}, one every {@code pause}, until done or the connection fails. */
    private static void trickle(OutputStream out, int bytes, Duration pause) {
        try {
            for (int i = 0; i < bytes; i++) {
                Thread.sleep(pause);
                out.write(' ');
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the gateway closed the connection, or the test is done
        }
    }

    private double openConnections() {
        Gauge gauge = gateway.context().prometheus().find("rest.http.connections").gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private double refused(String reason) {
        return gateway.counter("rest.requests.refused", "reason", reason);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout((int) SOCKET_TIMEOUT.toMillis());
        return socket;
    }

    /** Sends {@code request} on a connection of its own and reads the answer. */
    private Response exchange(String request) {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return read(new BufferedInputStream(socket.getInputStream()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads one answer: the status line, the headers, and a body of its Content-Length. */
    private static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        int length = 0;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(header.substring("content-length:".length()).strip());
            }
        }
        byte[] body = in.readNBytes(length);
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new IOException("the connection closed in the middle of an answer: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
