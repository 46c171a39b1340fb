package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.TlsFixtures;

/**
 * A gateway that other hosts can reach must have keys or require client certificates, unless anonymous access is asked
 * for; on loopback it needs none. Only built, never started: nothing listens beyond loopback.
 */
@ExtendWith(SharedStack.class)
class ExposureTest {

    @Test
    void reachableFromOtherHostsWithoutKeysRefusesToStartNamingTheSetting(EmbeddedStack stack) {
        SettingsException refused = assertThrows(SettingsException.class,
                () -> build(GatewaySettings.forStack(stack).set("FLASK_HOST", "0.0.0.0")));
        String message = refused.getMessage();
        assertTrue(message.contains("REST_API_KEYS") && message.contains("FLASK_HOST") && message.contains("REST_ALLOW_ANONYMOUS"),
                message);
        assertEquals(1, message.lines().count(), "one line");
    }

    @Test
    void keysOrAnonymousOnPurposeOrLoopbackLetItStart(EmbeddedStack stack) {
        build(GatewaySettings.forStack(stack).set("FLASK_HOST", "0.0.0.0").set("REST_API_KEYS", "k1"));
        build(GatewaySettings.forStack(stack).set("FLASK_HOST", "0.0.0.0").set("REST_ALLOW_ANONYMOUS", "true"));
        build(GatewaySettings.forStack(stack).set("FLASK_HOST", "127.0.0.2"));
        assertEquals("127.0.0.1", Settings.defaults("rest").getString("FLASK_HOST"));
        assertEquals("127.0.0.1", Settings.defaults("rest").getString("METRICS_HOST"));
    }

    /** Holding a client certificate of the CA is the access: no keys needed beyond loopback. */
    @Test
    void requiredClientCertificatesLetItStartWithoutKeys(EmbeddedStack stack, @TempDir Path dir) {
        build(GatewaySettings.forStack(stack).set("FLASK_HOST", "0.0.0.0")
                .set("REST_TLS_CERT_FILE", TlsFixtures.copy("server.crt", dir.resolve("tls.crt")).toString())
                .set("REST_TLS_KEY_FILE", TlsFixtures.copy("server.key", dir.resolve("tls.key")).toString())
                .set("REST_TLS_CLIENT_CA_FILE", TlsFixtures.copy("ca.crt", dir.resolve("ca.crt")).toString()));
    }

    private static void build(GatewaySettings settings) {
        Settings built = settings.build();
        try (ServiceHost host = ServiceHost.start(built)) {
            new RestGateway(host.context(built)).close();
        }
    }
}
