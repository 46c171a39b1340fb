package org.scrapycluster.common.zookeeper;

import java.time.Duration;
import java.util.Objects;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/**
 * How to reach ZooKeeper ({@code ZOOKEEPER_HOSTS}) and how patiently. A client made from it
 * reconnects by itself for as long as it is open, however long ZooKeeper is away, and re-creates
 * its session when the old one expired; single operations are retried with exponential back-off
 * from {@code retryBaseDelay} up to {@code retryMaxDelay} between attempts.
 *
 * @param connectString {@code host:port[,host:port…]}
 * @param sessionTimeout how long ZooKeeper keeps the session of a client it cannot hear
 * @param connectionTimeout how long to wait for a connection before an operation or a start-up gives up waiting
 * @param retryBaseDelay the first pause between retries of an operation
 * @param retryMaxDelay the longest pause between retries of an operation
 */
public record ZooKeeperConnection(String connectString, Duration sessionTimeout, Duration connectionTimeout,
        Duration retryBaseDelay, Duration retryMaxDelay) {

    private static final int MAX_RETRIES = 29;

    public ZooKeeperConnection {
        Objects.requireNonNull(connectString, "connectString");
        if (connectString.isBlank()) {
            throw new IllegalArgumentException("the ZooKeeper address is empty");
        }
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        Objects.requireNonNull(retryBaseDelay, "retryBaseDelay");
        Objects.requireNonNull(retryMaxDelay, "retryMaxDelay");
    }

    /** {@code connectString} with a 30 s session, a 10 s connection timeout and retries every 0.5 s to 10 s. */
    public static ZooKeeperConnection to(String connectString) {
        return new ZooKeeperConnection(connectString, Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofMillis(500), Duration.ofSeconds(10));
    }

    /** A new client, not started yet, so that listeners can be added before its first connection. */
    public CuratorFramework newClient() {
        return CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(Math.toIntExact(sessionTimeout.toMillis()))
                .connectionTimeoutMs(Math.toIntExact(connectionTimeout.toMillis()))
                .retryPolicy(new BoundedExponentialBackoffRetry(Math.toIntExact(retryBaseDelay.toMillis()),
                        Math.toIntExact(retryMaxDelay.toMillis()), MAX_RETRIES))
                .build();
    }
}
