package org.scrapycluster.redismonitor;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * One process of the Python original's, played by a test client: its own connection to Redis, as a
 * separate process has, and the spider it works for.
 */
abstract class PythonProcess implements AutoCloseable {

    private final RedisClient client;
    final StatefulRedisConnection<String, String> redis;
    private final String spider;

    /** Connects to the Redis at {@code 127.0.0.1:redisPort}. */
    PythonProcess(int redisPort, String spider) {
        this.client = RedisClient.create("redis://127.0.0.1:" + redisPort);
        this.redis = client.connect();
        this.spider = spider;
    }

    String spider() {
        return spider;
    }

    @Override
    public void close() {
        redis.close();
        client.shutdown();
    }
}
