package org.scrapycluster.crawler.scheduler;

import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * One redis-server for the unit tests of this package that need a real Redis and nothing else (no Kafka, no
 * ZooKeeper): started on first use, stopped with the test JVM by its shutdown hook.
 */
public final class PrivateRedis {

    private static RedisConnection connection;

    private PrivateRedis() {
    }

    public static synchronized RedisConnection connection() {
        if (connection == null) {
            EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crawler-unit"));
            connection = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
        }
        return connection;
    }
}
