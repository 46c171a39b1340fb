package org.scrapycluster.rest.link;

import java.util.Optional;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's connection to Redis (docs/compatibility.md §6.1's Redis connector): opened in the background, retried
 * with back-off until Redis answers, then kept by the client, which reconnects by itself. While
 * Redis is away commands fail at once instead of waiting.
 */
public final class RedisLink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisLink.class);

    private final RedisEndpoint endpoint;
    private final Consumer<RedisConnection> onConnected;
    private volatile RedisConnection connection;
    private volatile boolean closed;
    private final MeterRegistry meters;
    private Thread connector;

    /**
     * @param meters      where the connection records its command latencies
     * @param onConnected called once, on the connecting thread, when the connection is first open
     */
    public RedisLink(RedisEndpoint endpoint, MeterRegistry meters, Consumer<RedisConnection> onConnected) {
        this.endpoint = endpoint;
        this.meters = meters;
        this.onConnected = onConnected;
    }

    /** Starts connecting in the background. */
    public synchronized void start() {
        connector = Thread.ofPlatform().daemon().name("rest-redis-connector").start(this::connect);
    }

    /** The connection when it is up now. */
    public Optional<RedisConnection> connection() {
        RedisConnection current = connection;
        return current != null && current.isConnected() ? Optional.of(current) : Optional.empty();
    }

    /** Whether Redis answers now: the connection is open and no command has waited past the timeout for its answer. */
    public boolean connected() {
        return connection().map(RedisConnection::answers).orElse(false);
    }

    /** The health check {@code redis}. */
    public Health health() {
        RedisConnection current = connection;
        if (current == null) {
            return Health.down("connecting to " + endpoint);
        }
        return current.answers() ? Health.up(endpoint.toString()) : Health.down("Redis at " + endpoint + " does not answer");
    }

    private void connect() {
        Optional<RedisConnection> opened = RedisConnection.openRetrying(endpoint, meters, LOG, () -> closed);
        if (opened.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (closed) {
                opened.get().close();
                return;
            }
            connection = opened.get();
        }
        onConnected.accept(opened.get());
    }

    /** Stops connecting and closes the connection. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = connector;
        }
        if (running != null) {
            running.interrupt();
        }
        RedisConnection current = connection;
        if (current != null) {
            current.close();
        }
    }
}
