package org.scrapycluster.common.redis;

import java.io.File;

import io.lettuce.core.SslOptions;
import org.scrapycluster.common.file.TlsFileSettings;
import org.scrapycluster.common.settings.Settings;

/**
 * How a connection speaks TLS to Redis ({@code REDIS_TLS}, docs/operations.md "Redis over TLS"): whose certificates it
 * trusts, the JVM's trust store or the CAs of {@code REDIS_TLS_CA_FILE}, and, for a Redis that asks clients for a
 * certificate ({@code tls-auth-clients yes}), the one it presents ({@code REDIS_TLS_CERT_FILE} and
 * {@code REDIS_TLS_KEY_FILE}). Either way the host is checked against Redis's certificate.
 *
 * @param caFile   PEM file of the CA certificates to trust, or {@code null} for the JVM's trust store
 * @param certFile PEM file of the certificate (chain) to present, or {@code null} for none
 * @param keyFile  PEM file of that certificate's private key, unencrypted PKCS#8; {@code null} exactly when certFile is
 */
public record RedisTls(String caFile, String certFile, String keyFile) {

    /** TLS trusting the JVM's trust store, presenting no certificate. */
    public static final RedisTls JVM_TRUST = new RedisTls(null, null, null);

    private static final String[] FILE_SETTINGS = {"REDIS_TLS_CA_FILE", "REDIS_TLS_CERT_FILE", "REDIS_TLS_KEY_FILE"};

    public RedisTls {
        caFile = orNull(caFile);
        certFile = orNull(certFile);
        keyFile = orNull(keyFile);
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE go together: the certificate to present "
                    + "and its private key");
        }
    }

    /**
     * The TLS of a service's settings, or {@code null} when {@code REDIS_TLS} is false; a file that cannot be read, or one
     * named without {@code REDIS_TLS}, stops the service with a {@link org.scrapycluster.common.settings.SettingsException}
     * naming its setting.
     */
    static RedisTls from(Settings settings) {
        String[] files = TlsFileSettings.read(settings, "REDIS_TLS", "Redis", FILE_SETTINGS);
        return settings.getBoolean("REDIS_TLS") ? new RedisTls(files[0], files[1], files[2]) : null;
    }

    /** Lettuce's options for these files (read when a connection is made). */
    SslOptions sslOptions() {
        SslOptions.Builder options = SslOptions.builder().jdkSslProvider();
        if (caFile != null) {
            options.trustManager(new File(caFile));
        }
        if (certFile != null) {
            options.keyManager(new File(certFile), new File(keyFile), null);
        }
        return options.build();
    }

    private static String orNull(String file) {
        return file == null || file.isBlank() ? null : file;
    }
}
