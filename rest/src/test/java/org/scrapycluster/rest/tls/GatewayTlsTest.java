package org.scrapycluster.rest.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.rest.testing.TlsFixtures;

/**
 * The gateway's TLS files: refused at start naming their setting, read again when they change, the last good ones
 * kept while a change leaves them unusable.
 */
class GatewayTlsTest {

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void noFilesIsPlainHttp() {
        assertTrue(GatewayTls.from(Settings.defaults("rest"), meters, Clock.systemUTC()).isEmpty());
    }

    @Test
    void aCertificateWithoutItsKeyOrClientCertificatesWithoutHttpsStopTheStart() {
        assertRefused("REST_TLS_KEY_FILE", "go together", Map.of("REST_TLS_CERT_FILE", file("server.crt", "tls.crt")));
        assertRefused("REST_TLS_CLIENT_CA_FILE", "takes HTTPS", Map.of("REST_TLS_CLIENT_CA_FILE", file("ca.crt", "ca.crt")));
    }

    @Test
    void aKeyThatIsNotTheCertificatesStopsTheStart() {
        // both EC keys on the same curve: only a signature tells them apart
        assertRefused("REST_TLS_KEY_FILE", "is not the key of the first certificate",
                Map.of("REST_TLS_CERT_FILE", file("server.crt", "tls.crt"), "REST_TLS_KEY_FILE", file("client.key", "tls.key")));
        assertRefused("REST_TLS_KEY_FILE", "XDH key cannot sign here, as a TLS server's key must",
                Map.of("REST_TLS_CERT_FILE", file("x25519.crt", "tls.crt"), "REST_TLS_KEY_FILE", file("x25519.key", "tls.key")));
        assertRefused("REST_TLS_KEY_FILE", "no such file",
                Map.of("REST_TLS_CERT_FILE", file("server.crt", "tls.crt"), "REST_TLS_KEY_FILE", dir.resolve("none.key").toString()));
    }

    @Test
    void aRenewedCertificateIsTakenWhenItsKeyIsAndNotBefore() throws Exception {
        GatewayTls tls = start(Map.of());
        SslContext first = tls.get();
        tls.refresh();
        assertSame(first, tls.get(), "nothing changed");

        file("rsa.crt", "tls.crt"); // renewed, its key not yet
        tls.refresh();
        assertSame(first, tls.get(), "a certificate without its key is not taken");
        tls.refresh();
        assertSame(first, tls.get());

        file("rsa.key", "tls.key");
        tls.refresh();
        assertNotSame(first, tls.get(), "the renewed pair is taken");

        Files.delete(dir.resolve("tls.key")); // a Secret's files, gone for a moment
        SslContext renewed = tls.get();
        tls.refresh();
        assertSame(renewed, tls.get());
    }

    @Test
    void clientCertificatesAreRequiredWhenTheirCaIsGivenAndTheExpiryIsAGauge() {
        GatewayTls tls = start(Map.of("REST_TLS_CLIENT_CA_FILE", file("ca.crt", "ca.crt")));
        assertTrue(tls.requiresClientCertificates());
        assertFalse(start(Map.of()).requiresClientCertificates());
        double expiry = meters.get("rest.tls.certificate.expiry").gauge().value();
        assertTrue(expiry > 4_000_000_000.0, "a hundred years from 2026, in Unix seconds: " + expiry);
    }

    /** The fixtures' certificates are valid from 2026-12-07 for a hundred years. */
    @Test
    void anExpiredCertificateIsNotTakenAndOneNotValidYetIsTakenWhenItBecomesValid() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2200-01-01T00:00:00Z"));
        GatewayTls tls = start(Map.of(), ((InstantSource) now::get).withZone(ZoneOffset.UTC));
        SslContext first = tls.get();
        renew();
        tls.refresh();
        assertSame(first, tls.get(), "expired");

        now.set(Instant.parse("2026-01-01T00:00:00Z"));
        renew(); // written again: read again
        tls.refresh();
        assertSame(first, tls.get(), "not valid yet");
        tls.refresh();
        assertSame(first, tls.get());
        now.set(Instant.parse("2027-01-01T00:00:00Z"));
        tls.refresh();
        assertNotSame(first, tls.get(), "valid now, and taken without another change of the files");
    }

    private void renew() {
        file("rsa.crt", "tls.crt");
        file("rsa.key", "tls.key");
    }

    private GatewayTls start(Map<String, String> more) {
        return start(more, Clock.systemUTC());
    }

    private GatewayTls start(Map<String, String> more, Clock clock) {
        Map<String, String> values = new LinkedHashMap<>(more);
        values.put("REST_TLS_CERT_FILE", file("server.crt", "tls.crt"));
        values.put("REST_TLS_KEY_FILE", file("server.key", "tls.key"));
        return GatewayTls.from(Settings.defaults("rest").withLauncherValues(values), meters, clock).orElseThrow();
    }

    private void assertRefused(String setting, String problem, Map<String, String> values) {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> GatewayTls.from(Settings.defaults("rest").withLauncherValues(values), meters, Clock.systemUTC()));
        assertTrue(refused.getMessage().contains(setting) && refused.getMessage().contains(problem), refused.getMessage());
    }

    /** The fixture {@code name} as the file {@code as} of the test's folder; its path. */
    private String file(String name, String as) {
        return TlsFixtures.copy(name, dir.resolve(as)).toString();
    }
}
