package org.scrapycluster.common.queue;

import java.util.Optional;

import org.scrapycluster.common.redis.RedisConnection;

/**
 * A first-in first-out queue or a last-in first-out stack in a Redis LIST (docs/compatibility.md §7.2
 * {@code RedisQueue} and {@code RedisStack}): items are pushed on the left and taken from the
 * right (queue) or the left (stack).
 *
 * @param <T> the item type
 */
public final class ListQueue<T> {

    private final RedisConnection redis;
    private final String key;
    private final QueueCodec<T> codec;
    private final boolean lastInFirstOut;

    private ListQueue(RedisConnection redis, String key, QueueCodec<T> codec, boolean lastInFirstOut) {
        this.redis = redis;
        this.key = key;
        this.codec = codec;
        this.lastInFirstOut = lastInFirstOut;
    }

    /** A FIFO queue at {@code key}: LPUSH, RPOP. */
    public static <T> ListQueue<T> fifo(RedisConnection redis, String key, QueueCodec<T> codec) {
        return new ListQueue<>(redis, key, codec, false);
    }

    /** A LIFO stack at {@code key}: LPUSH, LPOP. */
    public static <T> ListQueue<T> lifo(RedisConnection redis, String key, QueueCodec<T> codec) {
        return new ListQueue<>(redis, key, codec, true);
    }

    public String key() {
        return key;
    }

    public void push(T item) {
        redis.sync().lpush(key, codec.encode(item));
    }

    /** The next item, or empty when there is none. */
    public Optional<T> pop() {
        String text = lastInFirstOut ? redis.sync().lpop(key) : redis.sync().rpop(key);
        return Optional.ofNullable(text).map(codec::decode);
    }

    public long size() {
        return redis.sync().llen(key);
    }

    public void clear() {
        redis.sync().del(key);
    }
}
