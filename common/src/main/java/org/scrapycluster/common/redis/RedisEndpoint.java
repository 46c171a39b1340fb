package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * Where Redis is and how to talk to it: the values of the {@code REDIS_HOST}, {@code REDIS_PORT},
 * {@code REDIS_DB}, {@code REDIS_USERNAME}, {@code REDIS_PASSWORD} and {@code REDIS_SOCKET_TIMEOUT} settings, plus TLS,
 * or, for a Sentinel-managed Redis, {@code REDIS_SENTINELS}, {@code REDIS_SENTINEL_MASTER}, {@code REDIS_SENTINEL_USERNAME}
 * and {@code REDIS_SENTINEL_PASSWORD} (docs/operations.md "Redis failover"), which then replace the host and port.
 *
 * @param host           host name or address
 * @param port           TCP port
 * @param db             database number ({@code REDIS_DB})
 * @param username       the ACL user to log in as (Redis 6 and later), or {@code null} for Redis's default user
 * @param password       password, or {@code null} for none
 * @param tls            how to speak TLS to Redis, or {@code null} to connect without it
 * @param timeout        connect timeout and command timeout
 * @param sentinels      the Sentinels to ask for the master; empty to connect to host and port
 * @param sentinelMaster the name the Sentinels monitor the master under; {@code null} without Sentinels
 * @param sentinelUsername the Sentinels' ACL user to log in as, or {@code null} for their default user; {@code null}
 *                       without Sentinels
 * @param sentinelPassword the Sentinels' own password, or {@code null} (or empty) for none; {@code null} without
 *                       Sentinels. Lettuce gives {@code password} to the data nodes only
 */
public record RedisEndpoint(String host, int port, int db, String username, String password, RedisTls tls, Duration timeout,
                            List<Sentinel> sentinels, String sentinelMaster, String sentinelUsername, String sentinelPassword) {

    /** One Sentinel's address. */
    public record Sentinel(String host, int port) {

        public Sentinel {
            Objects.requireNonNull(host, "host");
            if (host.isBlank()) {
                throw new IllegalArgumentException("Sentinel host must not be blank");
            }
            if (!Port.isConnectable(port)) {
                throw new IllegalArgumentException("Sentinel port must be 1-" + Port.MAX + ", got " + port);
            }
        }

        /** {@code host:port}, e.g. {@code sentinel-0.redis:26379}. */
        public static Sentinel parse(String address) {
            int colon = address.lastIndexOf(':');
            if (colon < 1 || colon == address.length() - 1) {
                throw new IllegalArgumentException("a Sentinel is host:port, got '" + address + "'");
            }
            try {
                return new Sentinel(address.substring(0, colon).trim(), Integer.parseInt(address.substring(colon + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a Sentinel is host:port, got '" + address + "'", e);
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** The original's {@code REDIS_SOCKET_TIMEOUT} default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public RedisEndpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(timeout, "timeout");
        if (host.isBlank()) {
            throw new IllegalArgumentException("Redis host must not be blank");
        }
        if (!Port.isConnectable(port)) {
            throw new IllegalArgumentException("Redis port must be 1-" + Port.MAX + ", got " + port);
        }
        if (db < 0) {
            throw new IllegalArgumentException("Redis database must be 0 or more, got " + db);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Redis timeout (REDIS_SOCKET_TIMEOUT) must be more than 0 seconds, got "
                    + timeout.toMillis() / 1000.0);
        }
        if (username != null && username.isBlank()) {
            username = null;
        }
        if (password != null && password.isEmpty()) {
            password = null;
        }
        sentinels = List.copyOf(Objects.requireNonNull(sentinels, "sentinels"));
        if (sentinelMaster != null && sentinelMaster.isBlank()) {
            sentinelMaster = null;
        }
        if (!sentinels.isEmpty() && sentinelMaster == null) {
            throw new IllegalArgumentException("REDIS_SENTINELS is set, so REDIS_SENTINEL_MASTER must name the master the Sentinels monitor");
        }
        if (sentinels.isEmpty() || sentinelPassword != null && sentinelPassword.isEmpty()) {
            sentinelPassword = null;
        }
        if (sentinels.isEmpty() || sentinelUsername != null && sentinelUsername.isBlank()) {
            sentinelUsername = null;
        }
    }

    /** Sentinels that ask for the same password as the data nodes, as {@code REDIS_SENTINEL_PASSWORD}'s default says. */
    public RedisEndpoint(String host, int port, int db, String password, boolean tls, Duration timeout,
                         List<Sentinel> sentinels, String sentinelMaster) {
        this(host, port, db, null, password, tls ? RedisTls.JVM_TRUST : null, timeout, sentinels, sentinelMaster, null, password);
    }

    /**
     * A Redis server at {@code host}:{@code port}, without Sentinels, logged in to as its default user, with TLS trusting the
     * JVM's trust store when {@code tls}.
     */
    public RedisEndpoint(String host, int port, int db, String password, boolean tls, Duration timeout) {
        this(host, port, db, null, password, tls ? RedisTls.JVM_TRUST : null, timeout, List.of(), null, null, null);
    }

    /** Whether to connect with TLS. */
    public boolean usesTls() {
        return tls != null;
    }

    /** Whether the master is found through Sentinels. */
    public boolean usesSentinels() {
        return !sentinels.isEmpty();
    }

    /**
     * The endpoint a service's settings name: {@code REDIS_HOST}, {@code REDIS_PORT},
     * {@code REDIS_DB}, {@code REDIS_USERNAME}, {@code REDIS_PASSWORD}, {@code REDIS_TLS} and its files ({@link RedisTls}),
     * {@code REDIS_SOCKET_TIMEOUT} (seconds),
     * {@code REDIS_SENTINELS}, {@code REDIS_SENTINEL_MASTER}, {@code REDIS_SENTINEL_USERNAME} and {@code REDIS_SENTINEL_PASSWORD}
     * (null: the same as {@code REDIS_PASSWORD}, as Bitnami's redis chart sets its Sentinels; empty: none).
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting when a value is out of range
     */
    public static RedisEndpoint from(Settings settings) {
        String password = settings.getNullableString("REDIS_PASSWORD");
        String sentinelPassword = settings.getNullableString("REDIS_SENTINEL_PASSWORD");
        try {
            return new RedisEndpoint(settings.getString("REDIS_HOST"), settings.getInt("REDIS_PORT"), settings.getInt("REDIS_DB"),
                    settings.getNullableString("REDIS_USERNAME"), password, RedisTls.from(settings),
                    settings.getSeconds("REDIS_SOCKET_TIMEOUT"),
                    settings.getStringList("REDIS_SENTINELS").stream().filter(s -> !s.isBlank()).map(Sentinel::parse).toList(),
                    settings.getNullableString("REDIS_SENTINEL_MASTER"), settings.getNullableString("REDIS_SENTINEL_USERNAME"),
                    sentinelPassword == null ? password : sentinelPassword);
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
        return new RedisEndpoint(host, port, db, username, password, tls, timeout, sentinels, sentinelMaster, sentinelUsername,
                sentinelPassword);
    }

    /**
     * {@code redis://[user@]host:port/db}, or {@code master <name> [(user <user>)] via redis://[sentinel user@]a:1,b:2/db},
     * never a password: for logs.
     */
    @Override
    public String toString() {
        String scheme = usesTls() ? "rediss://" : "redis://";
        if (usesSentinels()) {
            return "master " + sentinelMaster + (username == null ? "" : " (user " + username + ")") + " via " + scheme
                    + (sentinelUsername == null ? "" : sentinelUsername + "@")
                    + sentinels.stream().map(Sentinel::toString).collect(Collectors.joining(",")) + "/" + db;
        }
        return scheme + (username == null ? "" : username + "@") + host + ":" + port + "/" + db;
    }
}
