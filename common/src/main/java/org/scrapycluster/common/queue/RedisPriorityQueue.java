package org.scrapycluster.common.queue;

import java.util.Optional;

import io.lettuce.core.ScoredValue;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * A priority queue in a Redis ZSET (docs/compatibility.md §7.2 {@code RedisPriorityQueue}): score =
 * −priority, and a pop atomically takes the lowest score, so the highest priority comes first;
 * equal priorities come in member order. This is the plain structure; crawl queues are served
 * through {@link ThrottledQueue} and filled through {@link Enqueuer}.
 *
 * @param <T> the item type
 */
public final class RedisPriorityQueue<T> {

    private final RedisConnection redis;
    private final String key;
    private final QueueCodec<T> codec;

    public RedisPriorityQueue(RedisConnection redis, String key, QueueCodec<T> codec) {
        this.redis = redis;
        this.key = key;
        this.codec = codec;
    }

    public String key() {
        return key;
    }

    public void push(T item, int priority) {
        redis.sync().zadd(key, -priority, codec.encode(item));
    }

    /** The item of the highest priority, removed, or empty when there is none ({@code ZPOPMIN}). */
    public Optional<T> pop() {
        ScoredValue<String> head = redis.sync().zpopmin(key);
        return head == null || !head.hasValue() ? Optional.empty() : Optional.of(codec.decode(head.getValue()));
    }

    public long size() {
        return redis.sync().zcard(key);
    }

    public void clear() {
        redis.sync().del(key);
    }
}
