package org.scrapycluster.kafkamonitor.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * A Redis of a test class's own, emptied before each test, for tests that check every key written:
 * {@code @RegisterExtension static final PrivateRedis REDIS = new PrivateRedis("name");}.
 */
public final class PrivateRedis implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {

    private final String name;
    private EmbeddedRedis server;
    private RedisConnection connection;

    public PrivateRedis(String name) {
        this.name = name;
    }

    /** The connection to it, open while the class's tests run. */
    public RedisConnection connection() {
        return connection;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = EmbeddedRedis.start(0, DataDirectory.temporary(name));
        connection = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        connection.sync().flushall();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        connection.close();
        server.close();
    }
}
