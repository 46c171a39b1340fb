package org.scrapycluster.common.redis;

import java.util.UUID;

import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;

/** Connections and unique names for tests against the shared or a private Redis. */
public final class TestRedis {

    private TestRedis() {
    }

    /** A connection to the shared stack's Redis. */
    public static RedisConnection connect(EmbeddedStack stack) {
        return RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
    }

    /** A connection to a private Redis, with a short timeout for outage tests. */
    public static RedisConnection connect(EmbeddedRedis redis) {
        return RedisConnection.open(new RedisEndpoint(redis.host(), redis.port(), 0, null, false, java.time.Duration.ofSeconds(2)));
    }

    /** A name no other test uses, free of ':' (spider ids, key prefixes). */
    public static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }
}
