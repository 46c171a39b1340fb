package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.Objects;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * Where Redis is and how to talk to it: the values of the {@code REDIS_HOST}, {@code REDIS_PORT},
 * {@code REDIS_DB}, {@code REDIS_PASSWORD} and {@code REDIS_SOCKET_TIMEOUT} settings, plus TLS.
 *
 * @param host     host name or address
 * @param port     TCP port
 * @param db       database number ({@code REDIS_DB})
 * @param password password, or {@code null} for none
 * @param tls      whether to connect with TLS
 * @param timeout  connect timeout and command timeout
 */
public record RedisEndpoint(String host, int port, int db, String password, boolean tls, Duration timeout) {

    /** The original's {@code REDIS_SOCKET_TIMEOUT} default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public RedisEndpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(timeout, "timeout");
        if (host.isBlank()) {
            throw new IllegalArgumentException("Redis host must not be blank");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("Redis port must be 1-65535, got " + port);
        }
        if (db < 0) {
            throw new IllegalArgumentException("Redis database must be 0 or more, got " + db);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Redis timeout must be positive, got " + timeout);
        }
        if (password != null && password.isEmpty()) {
            password = null;
        }
    }

    /**
     * The endpoint a service's settings name: {@code REDIS_HOST}, {@code REDIS_PORT},
     * {@code REDIS_DB}, {@code REDIS_PASSWORD}, {@code REDIS_TLS} and {@code REDIS_SOCKET_TIMEOUT} (seconds).
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting when a value is out of range
     */
    public static RedisEndpoint from(Settings settings) {
        try {
            return new RedisEndpoint(settings.getString("REDIS_HOST"), settings.getInt("REDIS_PORT"), settings.getInt("REDIS_DB"),
                    settings.getNullableString("REDIS_PASSWORD"), settings.getBoolean("REDIS_TLS"), settings.getSeconds("REDIS_SOCKET_TIMEOUT"));
        } catch (IllegalArgumentException e) {
            throw new SettingsException("The Redis settings of the " + settings.service() + " cannot be used: " + e.getMessage(), e);
        }
    }

    /** Database 0, no password, no TLS, the default timeout. */
    public static RedisEndpoint of(String host, int port) {
        return new RedisEndpoint(host, port, 0, null, false, DEFAULT_TIMEOUT);
    }

    /** A copy using database {@code db}. */
    public RedisEndpoint withDb(int db) {
        return new RedisEndpoint(host, port, db, password, tls, timeout);
    }

    /** {@code host:port/db}, never the password: for logs. */
    @Override
    public String toString() {
        return (tls ? "rediss://" : "redis://") + host + ":" + port + "/" + db;
    }
}
