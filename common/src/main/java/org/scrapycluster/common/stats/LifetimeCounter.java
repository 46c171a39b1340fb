package org.scrapycluster.common.stats;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.redis.RedisConnection;

/**
 * A count of events since the beginning, at {@code stats:<service>:<name>:lifetime}: a
 * HyperLogLog to which every event adds a unique member (about 1 % error, 12 KiB at most), as in
 * the original, so Python and Java components can add to the same key.
 */
public final class LifetimeCounter {

    private final String key;

    public LifetimeCounter(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    /** Adds one event per member ({@code PFADD}); members must be unique per event. */
    public CompletableFuture<Long> addAsync(RedisConnection redis, List<String> members) {
        return redis.async().pfadd(key, members.toArray(String[]::new)).toCompletableFuture();
    }
}
