package org.scrapycluster.common.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;

/**
 * A subscription to one Redis pub/sub channel, on a connection of its own made by a {@link RedisConnection}'s
 * client (same endpoint, same Sentinels). Each message on the channel runs {@code heard}, and so does each confirmed
 * subscription: pub/sub delivers at most once, a message published while the connection was down is lost, and a
 * listener that looks again when it is subscribed again misses nothing (docs/architecture.md "Readiness and
 * discovery"). {@code heard} runs on Lettuce's event loop and must not block.
 *
 * <p>Lettuce subscribes again by itself each time it reconnects, to the channels Redis has confirmed. A subscription
 * not confirmed yet (asked for while Redis was down, or refused by an ACL without the channel) is asked for again by
 * {@link #keep()}; a refusal is logged once.
 */
public final class ChannelListener implements AutoCloseable {

    private final StatefulRedisPubSubConnection<String, String> connection;
    private final String channel;
    private final Logger log;
    private volatile boolean confirmed;
    private volatile boolean refusalSaid;

    ChannelListener(StatefulRedisPubSubConnection<String, String> connection, String channel, Runnable heard, Logger log) {
        this.connection = connection;
        this.channel = channel;
        this.log = log;
        connection.addListener(new RedisPubSubAdapter<>() { // the connection's one channel
            @Override
            public void message(String from, String message) {
                heard.run();
            }

            @Override
            public void subscribed(String to, long count) {
                heard.run(); // first: whoever sees it confirmed knows that what it heard is under way
                confirmed = true;
            }
        });
        keep();
    }

    /** Asks Redis for the subscription unless it has confirmed it once; what becomes of the request shows later. */
    public void keep() {
        if (confirmed) {
            return;
        }
        try {
            connection.async().subscribe(channel).whenComplete((done, failure) -> {
                if (failure instanceof RedisCommandExecutionException refusal && !refusalSaid) {
                    refusalSaid = true;
                    log.warn("Redis refuses a subscription to {} ({}); asking again until it allows it", channel,
                            refusal.getMessage());
                }
            });
        } catch (RedisException e) {
            // not connected: the next call asks again
        }
    }

    /** Whether Redis has confirmed the subscription (Lettuce keeps it across reconnections from then on). */
    public boolean subscribed() {
        return confirmed;
    }

    @Override
    public void close() {
        connection.close();
    }
}
