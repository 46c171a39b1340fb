package org.scrapycluster.redismonitor.job;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;

/**
 * One job found in Redis: its key ({@code info:link:app1:c1}) and the value read under its lock
 * (usually the request's uuid).
 */
public record Job(String key, String value) {

    public Job {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    /**
     * The value of a job key from its pending {@code GET}, or null when the key is gone or is no job: a key of
     * another type that a plugin's pattern matches, such as the queue {@code info:<domain>:queue} of a spider
     * named {@code info}, answers {@code WRONGTYPE} and is passed over, never taken for a Redis outage.
     */
    public static String value(RedisConnection redis, CompletableFuture<String> get) {
        return RedisErrors.unlessWrongType(() -> redis.await(get), null);
    }

    /** The key's {@code :}-separated parts, as the original splits it (empty parts kept). */
    public List<String> parts() {
        return List.of(key.split(":", -1));
    }

    /**
     * The parts of a key that must have exactly {@code count} of them.
     *
     * @throws RejectedJobException saying {@code shape} when it has another number
     */
    public List<String> parts(int count, String shape) {
        List<String> parts = parts();
        if (parts.size() != count || parts.stream().anyMatch(String::isEmpty)) {
            throw new RejectedJobException("The job key " + key + " is not " + shape);
        }
        return parts;
    }
}
