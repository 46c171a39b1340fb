package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import ch.qos.logback.classic.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.http.Dispatcher;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.RunningGateway;
import org.scrapycluster.rest.testing.TlsFixtures;

/**
 * A gateway serving HTTPS (REST_TLS_CERT_FILE, REST_TLS_KEY_FILE), met by real clients: the JDK's HTTP client trusting
 * the test CA or not, raw TLS and plain sockets; client certificates required (REST_TLS_CLIENT_CA_FILE); a certificate
 * renewed in its files while the gateway runs.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpsGatewayTest {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);

    private Path dir;
    private EmbeddedStack stack;
    private RunningGateway gateway;
    private URI base;

    @BeforeAll
    void start(EmbeddedStack shared, @TempDir Path folder) {
        stack = shared;
        dir = folder;
        gateway = RunningGateway.start(https("main").set("REST_HEADER_TIMEOUT", "1").build());
        base = gateway.client().base();
    }

    @AfterAll
    void stop() {
        gateway.close();
    }

    @Test
    void anHttpsCallIsAnsweredAndTheGatewayGivesItsAddressAsHttps() throws Exception {
        assertEquals("https", base.getScheme());
        HttpResponse<String> health = get(TlsFixtures.trustingTestCa(), base);
        assertEquals(200, health.statusCode(), health.body());
    }

    @Test
    void aPlainHttpRequestIsToldToUseHttpsAndItsConnectionEnds() throws Exception {
        double before = gateway.counter("rest.requests.refused", "reason", "plain_http");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
            String answer = exchange(socket, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: sent-in-the-clear\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400 ") && answer.contains("send the request to https://")
                    && answer.toLowerCase().contains("connection: close"), answer);
        }
        assertEquals(before + 1, gateway.counter("rest.requests.refused", "reason", "plain_http"));
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateFailsItsHandshakeAndItIsCounted() throws Exception {
        double before = gateway.counter("rest.tls.handshakes.failed");
        assertThrows(IOException.class, () -> get(SSLContext.getDefault(), base));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gateway.counter("rest.tls.handshakes.failed") > before);
    }

    @Test
    void anAnswerThatEndsTheConnectionEndsItWithCloseNotify() throws Exception {
        try (SSLSocket socket = tlsSocket()) {
            // read to the end without an SSLException: the stream ends with close_notify, not cut short
            String answer = exchange(socket, "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 200 ") && answer.endsWith("}"), answer);
        }
    }

    @Test
    void aConnectionThatSendsNoRequestIsClosedAfterTheHeaderTimeoutWithOrWithoutItsHandshake() throws Exception {
        try (SSLSocket socket = tlsSocket()) {
            socket.startHandshake();
            String answer = exchange(socket, "");
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
        }
        // no byte, or half a ClientHello: closed with no answer, which could not be read (nor go out unencrypted), within
        // REST_HEADER_TIMEOUT (1 s here), not TLS's own handshake timeout of 10 s
        for (byte[] sent : List.of(new byte[0], new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01})) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
                socket.getOutputStream().write(sent);
                socket.setSoTimeout((int) Duration.ofSeconds(8).toMillis());
                assertEquals(0, socket.getInputStream().readAllBytes().length);
            }
        }
    }

    @Test
    void clientCertificatesAreRequiredWhenTheirCaIsGiven() throws Exception {
        GatewaySettings settings = https("mutual").set("REST_TLS_CLIENT_CA_FILE", fixture("ca.crt", "mutual").toString());
        try (RunningGateway mutual = RunningGateway.start(settings.build());
             CapturedLog log = CapturedLog.start(Dispatcher.class, Level.INFO)) {
            URI at = mutual.client().base();
            assertThrows(IOException.class, () -> get(TlsFixtures.trustingTestCa(), at));
            assertEquals(200, get(TlsFixtures.withClientCertificate(), at).statusCode());
            // the request log names the certificate's holder, as it names a key's
            assertTrue(log.events().stream().anyMatch(line -> line.getFormattedMessage().equals("GET /health/live 200")
                    && line.getKeyValuePairs().stream().anyMatch(pair -> pair.key.equals("client")
                            && "CN=scrapy-cluster client".equals(pair.value))), String.valueOf(log.lines()));
        }
    }

    @Test
    void aCertificateRenewedInItsFilesIsPresentedToNewConnectionsWithoutARestart() throws Exception {
        try (RunningGateway renewing = RunningGateway.start(https("renewing").build())) {
            URI at = renewing.client().base();
            assertEquals("CN=127.0.0.1", TlsFixtures.presentedSubject(at));
            fixture("rsa.crt", "renewing/tls.crt");
            fixture("rsa.key", "renewing/tls.key");
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> TlsFixtures.presentedSubject(at).equals("CN=renewed 127.0.0.1"));
            assertEquals(200, get(TlsFixtures.trustingTestCa(), at).statusCode());
        }
    }

    /** Settings of a gateway serving HTTPS with the test CA's certificate for 127.0.0.1, its files in {@code folder}. */
    private GatewaySettings https(String folder) {
        return GatewaySettings.forStack(stack)
                .set("REST_TLS_CERT_FILE", fixture("server.crt", folder + "/tls.crt").toString())
                .set("REST_TLS_KEY_FILE", fixture("server.key", folder + "/tls.key").toString());
    }

    private Path fixture(String name, String as) {
        Path file = dir.resolve(as.contains("/") ? as : as + "/" + name);
        file.getParent().toFile().mkdirs();
        return TlsFixtures.copy(name, file);
    }

    private SSLSocket tlsSocket() throws IOException {
        SSLSocket socket = (SSLSocket) TlsFixtures.trustingTestCa().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), base.getPort());
        socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
        return socket;
    }

    /** Writes {@code request} (nothing when empty) and reads what comes back until the gateway ends the connection. */
    private static String exchange(Socket socket, String request) throws IOException {
        socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
        if (!request.isEmpty()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> get(SSLContext tls, URI base) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(READ_TIMEOUT).build();
        return client.send(HttpRequest.newBuilder(base.resolve("/health/live")).timeout(READ_TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
