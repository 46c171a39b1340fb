package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.testing.ResourceFixtures;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.FreePorts;

/**
 * {@code REDIS_TLS} against a real redis-server speaking TLS, its certificate signed by a CA of its own (the test CA of
 * {@code tls/README.md}): trusted through {@code REDIS_TLS_CA_FILE}, refused without it, as the JVM's trust store
 * does not know that CA; and a Redis that asks its clients for a certificate, given one through
 * {@code REDIS_TLS_CERT_FILE} and {@code REDIS_TLS_KEY_FILE} (docs/operations.md "Redis over TLS").
 */
class RedisTlsTest {

    @TempDir
    Path files;

    @Test
    void aRedisWhoseCertificateAPrivateCaSignedIsReachedWithThatCaFile() throws IOException {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-tls"))) {
            int tlsPort = speakTls(server, false);
            RedisEndpoint endpoint = TestRedis.endpointFromSettings(tlsPort, Map.of("REDIS_TLS", "true", "REDIS_TLS_CA_FILE", fixture("ca.crt")));
            assertEquals("rediss://127.0.0.1:" + tlsPort + "/0", endpoint.toString());
            try (RedisConnection redis = RedisConnection.open(endpoint)) {
                assertEquals("OK", redis.sync().set("redis-tls-test", "v"));
                assertEquals("v", redis.sync().get("redis-tls-test"));
            }
            Refusals.assertRefused(TestRedis.endpointFromSettings(tlsPort, Map.of("REDIS_TLS", "true")), "unable to find valid certification path");
        }
    }

    @Test
    void aRedisThatAsksForAClientCertificateTakesTheOneOfTheCertAndKeyFiles() throws IOException {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-tls-clients"))) {
            int tlsPort = speakTls(server, true);
            Map<String, String> trusting = Map.of("REDIS_TLS", "true", "REDIS_TLS_CA_FILE", fixture("ca.crt"));
            Map<String, String> presenting = new HashMap<>(trusting);
            presenting.put("REDIS_TLS_CERT_FILE", fixture("client.crt"));
            presenting.put("REDIS_TLS_KEY_FILE", fixture("client.key"));
            try (RedisConnection redis = RedisConnection.open(TestRedis.endpointFromSettings(tlsPort, presenting))) {
                assertEquals("PONG", redis.sync().ping());
            }
            assertThrows(RedisConnectionException.class, () -> RedisConnection.open(TestRedis.endpointFromSettings(tlsPort, trusting)).close());
        }
    }

    /** With Sentinels (Bitnami's chart with sentinel.enabled and tls.enabled), the Sentinels are asked over TLS too. */
    @Test
    void sentinelsSpeakingTlsOnlyAreAskedOverTlsTrustingTheSameCaFile() throws IOException {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-tls-sentinel"))) {
            int tlsPort = speakTls(server, false);
            String ca = fixture("ca.crt");
            try (TestSentinel sentinel = TestSentinel.startOverTls(tlsPort, fixture("server.crt"), fixture("server.key"), ca)) {
                RedisEndpoint endpoint = TestRedis.endpointFromSettings(tlsPort, Map.of("REDIS_TLS", "true", "REDIS_TLS_CA_FILE", ca,
                        "REDIS_SENTINELS", sentinel.address(), "REDIS_SENTINEL_MASTER", TestSentinel.MASTER_NAME));
                try (RedisConnection redis = RedisConnection.open(endpoint)) {
                    assertEquals("OK", redis.sync().set("redis-tls-sentinel", "v"));
                    assertEquals("v", redis.sync().get("redis-tls-sentinel"));
                }
            }
        }
    }

    @Test
    void tlsFilesWithoutTlsOrThatCannotBeReadOrACertificateWithoutItsKeyStopTheServiceNamingTheSetting() throws IOException {
        SettingsException withoutTls = assertThrows(SettingsException.class,
                () -> TestRedis.endpointFromSettings(6379, Map.of("REDIS_TLS_CA_FILE", fixture("ca.crt"))));
        assertTrue(withoutTls.getMessage().contains("REDIS_TLS_CA_FILE") && withoutTls.getMessage().contains("names a file for Redis's "
                + "TLS, so REDIS_TLS must be true"), withoutTls.getMessage());
        SettingsException withoutKey = assertThrows(SettingsException.class,
                () -> TestRedis.endpointFromSettings(6379, Map.of("REDIS_TLS", "true", "REDIS_TLS_CERT_FILE", fixture("client.crt"))));
        assertTrue(withoutKey.getMessage().contains("REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE go together"), withoutKey.getMessage());
        Path missing = files.resolve("missing.crt");
        SettingsException unreadable = assertThrows(SettingsException.class,
                () -> TestRedis.endpointFromSettings(6379, Map.of("REDIS_TLS", "true", "REDIS_TLS_CA_FILE", missing.toString())));
        assertTrue(unreadable.getMessage().contains("REDIS_TLS_CA_FILE") && unreadable.getMessage().contains(missing.toString()),
                unreadable.getMessage());
        assertTrue(unreadable.getMessage().endsWith("which cannot be read: no such file"), unreadable.getMessage());
        SettingsException folder = assertThrows(SettingsException.class,
                () -> TestRedis.endpointFromSettings(6379, Map.of("REDIS_TLS", "true", "REDIS_TLS_CA_FILE", files.toString())));
        assertTrue(folder.getMessage().contains("REDIS_TLS_CA_FILE") && folder.getMessage().contains("which cannot be read"),
                folder.getMessage());
    }

    /**
     * Turns TLS on in {@code server} (Redis 6 and later take it live), on a port of its own, asking clients for a certificate
     * the test CA signed when {@code clientCertificates}; returns that port.
     */
    private int speakTls(EmbeddedRedis server, boolean clientCertificates) throws IOException {
        int tlsPort = FreePorts.pick();
        Map<String, String> tls = new LinkedHashMap<>();
        tls.put("tls-cert-file", fixture("server.crt"));
        tls.put("tls-key-file", fixture("server.key"));
        tls.put("tls-ca-cert-file", fixture("ca.crt"));
        tls.put("tls-auth-clients", clientCertificates ? "yes" : "no");
        tls.put("tls-port", Integer.toString(tlsPort));
        try (RedisConnection admin = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            admin.sync().configSet(tls);
        }
        return tlsPort;
    }

    /** The fixture {@code tls/<name>} as a file. */
    private String fixture(String name) throws IOException {
        Path file = files.resolve(name);
        if (!Files.exists(file)) {
            Files.writeString(file, ResourceFixtures.text("tls/" + name));
        }
        return file.toString();
    }
}
