package org.scrapycluster.common.zookeeper;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.settings.Settings;

/**
 * How to reach ZooKeeper ({@code ZOOKEEPER_HOSTS}), as whom ({@code ZOOKEEPER_DIGEST}), over TLS or not
 * ({@code ZOOKEEPER_TLS}) and how patiently. A client made from it
 * reconnects by itself for as long as it is open, however long ZooKeeper is away, and re-creates
 * its session when the old one expired; single operations are retried with exponential back-off
 * from {@code retryBaseDelay} up to {@code retryMaxDelay} between attempts.
 *
 * @param connectString {@code host:port[,host:port…]}
 * @param sessionTimeout how long ZooKeeper keeps the session of a client it cannot hear
 * @param connectionTimeout how long to wait for a connection before an operation or a start-up gives up waiting
 * @param retryBaseDelay the first pause between retries of an operation
 * @param retryMaxDelay the longest pause between retries of an operation
 * @param digest {@code user:password} of ZooKeeper's digest scheme, which a client adds to its session and the nodes it
 *        creates allow to write (anyone may read them: docs/operations.md "ZooKeeper credentials"); {@code null} for none
 * @param tls how to speak TLS to ZooKeeper's secure client port, or {@code null} for plain connections
 */
public record ZooKeeperConnection(String connectString, Duration sessionTimeout, Duration connectionTimeout,
        Duration retryBaseDelay, Duration retryMaxDelay, String digest, ZooKeeperTls tls) {

    private static final int MAX_RETRIES = 29;
    private static final String SETTING = "ZOOKEEPER_HOSTS";
    private static final String DIGEST_SETTING = "ZOOKEEPER_DIGEST";
    private static final String DIGEST_SCHEME = "digest";
    /**
     * The largest answer its clients take from ZooKeeper: four times ZooKeeper's default of 1 MiB (its
     * {@code jute.maxbuffer}), which a server with its default limits exceeds when it answers with the data of a node
     * written as large as it takes (the answer carries the node's stat where the write carried its path), and such a
     * client retried for minutes as the connection dropped at each answer (docs/redis-monitor.md, "zookeeper push /
     * pull").
     */
    static final int MAX_ANSWER_BYTES = 4 * 1024 * 1024;

    public ZooKeeperConnection {
        Objects.requireNonNull(connectString, "connectString");
        whyNot(connectString).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        Objects.requireNonNull(retryBaseDelay, "retryBaseDelay");
        Objects.requireNonNull(retryMaxDelay, "retryMaxDelay");
        if (digest != null && digest.isEmpty()) {
            digest = null;
        }
        if (digest != null && digest.indexOf(':') < 1) {
            throw new IllegalArgumentException("is not user:password (a user, then ':' and its password)");
        }
    }

    /** A plain connection without credentials. */
    public ZooKeeperConnection(String connectString, Duration sessionTimeout, Duration connectionTimeout, Duration retryBaseDelay,
            Duration retryMaxDelay) {
        this(connectString, sessionTimeout, connectionTimeout, retryBaseDelay, retryMaxDelay, null, null);
    }

    /**
     * Why {@code connectString} names no ZooKeeper, or empty when it is {@code host[:port][,host[:port]…]}, a chroot path
     * after it allowed, as ZooKeeper's client reads it. Checked before a client is made: the client fails on an empty
     * entry or a port that is not a number only once it starts, inside its own thread, with a stack trace, and retries
     * (docs/redis-monitor.md, "zookeeper push / pull").
     */
    static Optional<String> whyNot(String connectString) {
        if (connectString.isBlank()) {
            return Optional.of("the ZooKeeper address is empty");
        }
        int chroot = connectString.indexOf('/');
        for (String entry : (chroot < 0 ? connectString : connectString.substring(0, chroot)).split(",", -1)) {
            String hostPort = entry.strip();
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            String port = colon < 0 ? "2181" : hostPort.substring(colon + 1);
            if (host.isEmpty() || !Port.isConnectable(Port.parse(port).orElse(-1))) {
                return Optional.of("'" + entry + "' in '" + connectString + "' is no host or host:port (zk-1:2181, 10.0.0.5:2181)");
            }
        }
        return Optional.empty();
    }

    /**
     * The ZooKeeper of {@code settings}' {@code ZOOKEEPER_HOSTS}, with its {@code ZOOKEEPER_DIGEST} and its TLS
     * ({@code ZOOKEEPER_TLS} and its files); a
     * {@link org.scrapycluster.common.settings.SettingsException} says why not.
     */
    public static ZooKeeperConnection of(Settings settings) {
        return of(settings, settings.getString(SETTING));
    }

    /** {@link #of(Settings)} at {@code connectString} instead of {@code ZOOKEEPER_HOSTS}. */
    public static ZooKeeperConnection of(Settings settings, String connectString) {
        ZooKeeperConnection connection;
        try {
            connection = to(connectString);
        } catch (IllegalArgumentException notZooKeeper) {
            throw settings.invalid(SETTING, notZooKeeper.getMessage());
        }
        try {
            connection = connection.as(settings.getNullableString(DIGEST_SETTING));
        } catch (IllegalArgumentException notDigest) {
            throw settings.invalid(DIGEST_SETTING, notDigest.getMessage());
        }
        return connection.over(ZooKeeperTls.from(settings));
    }

    /** This connection with {@code digest} ({@code user:password}, or {@code null} for none) as its credentials. */
    public ZooKeeperConnection as(String digest) {
        return new ZooKeeperConnection(connectString, sessionTimeout, connectionTimeout, retryBaseDelay, retryMaxDelay, digest, tls);
    }

    /** This connection over {@code tls}, or plain for {@code null}. */
    public ZooKeeperConnection over(ZooKeeperTls tls) {
        return new ZooKeeperConnection(connectString, sessionTimeout, connectionTimeout, retryBaseDelay, retryMaxDelay, digest, tls);
    }

    /** {@code connectString} with a 30 s session, a 10 s connection timeout and retries every 0.5 s to 10 s. */
    public static ZooKeeperConnection to(String connectString) {
        return new ZooKeeperConnection(connectString, Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofMillis(500), Duration.ofSeconds(10));
    }

    /**
     * Why no host of the address can be reached now, with the resolver's words, or empty when one has an address. A client
     * started meanwhile would log each failed look-up as an ERROR with its stack trace, and try again; a tool says this
     * in one line instead.
     */
    public Optional<String> whyNoHostResolves() {
        List<String> failures = new ArrayList<>();
        for (InetSocketAddress server : new ConnectStringParser(connectString).getServerAddresses()) {
            try {
                InetAddress.getAllByName(server.getHostString());
                return Optional.empty();
            } catch (UnknownHostException e) {
                failures.add(e.getMessage());
            }
        }
        return Optional.of(String.join("; ", failures));
    }

    /**
     * A new client, not started yet, so that listeners can be added before its first connection. With a digest, its
     * session carries it, and the nodes it creates give that user every right and anyone the right to read.
     */
    public CuratorFramework newClient() {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(Math.toIntExact(sessionTimeout.toMillis()))
                .connectionTimeoutMs(Math.toIntExact(connectionTimeout.toMillis()))
                .retryPolicy(new BoundedExponentialBackoffRetry(Math.toIntExact(retryBaseDelay.toMillis()),
                        Math.toIntExact(retryMaxDelay.toMillis()), MAX_RETRIES))
                .zkClientConfig(clientConfig());
        if (digest != null) {
            builder.authorization(DIGEST_SCHEME, digest.getBytes(StandardCharsets.UTF_8)).aclProvider(writableBy(digest));
        }
        return builder.build();
    }

    /** Every right for the user of {@code digest}, reading for anyone: the ACL of every node a client with it creates. */
    private static ACLProvider writableBy(String digest) {
        List<ACL> acl;
        try {
            // not List.of: ZooKeeper's client asks the list whether it contains null, which List.of answers with an exception
            acl = Collections.unmodifiableList(Arrays.asList(
                    new ACL(ZooDefs.Perms.ALL, new Id(DIGEST_SCHEME, DigestAuthenticationProvider.generateDigest(digest))),
                    new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-1, which ZooKeeper's digest scheme needs", e);
        }
        return new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return acl;
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return acl;
            }
        };
    }

    /** The address and timeouts, and the digest's user only: for logs. */
    @Override
    public String toString() {
        return "ZooKeeperConnection[" + connectString + (digest == null ? "" : ", user " + digest.substring(0, digest.indexOf(':')))
                + (tls == null ? "" : ", TLS") + ", session " + sessionTimeout + ", connection " + connectionTimeout + "]";
    }

    private ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(MAX_ANSWER_BYTES));
        if (tls != null) {
            tls.applyTo(config);
        }
        return config;
    }
}
