package org.scrapycluster.crawler.scheduler;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * One redis-server for the unit tests of this package that need a real Redis and nothing else (no Kafka, no
 * ZooKeeper): started on first use, stopped with the test JVM by its shutdown hook.
 */
public final class PrivateRedis {

    private static RedisEndpoint endpoint;
    private static RedisConnection connection;

    private PrivateRedis() {
    }

    public static synchronized RedisConnection connection() {
        if (connection == null) {
            EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crawler-unit"));
            endpoint = RedisEndpoint.of(server.host(), server.port());
            connection = RedisConnection.open(endpoint);
        }
        return connection;
    }

    /** A connection of its own to the same server, for a test that holds up the shared one; the caller closes it. */
    public static synchronized RedisConnection separateConnection() {
        connection();
        return RedisConnection.open(endpoint);
    }

    /** Sends {@code CLIENT <arguments>} on {@code redis} (Lettuce has no {@code PAUSE WRITE}). */
    public static void client(RedisConnection redis, String... arguments) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        for (String argument : arguments) {
            args.add(argument);
        }
        redis.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8), args);
    }
}
