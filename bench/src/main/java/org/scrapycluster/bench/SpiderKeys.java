package org.scrapycluster.bench;

import java.util.ArrayList;
import java.util.List;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/** Cleaning up after a benchmark that ran against a Redis not its own: every key of the spiders it made up. */
public final class SpiderKeys {

    /** Keys deleted by one {@code UNLINK}. */
    private static final int PER_CALL = 1_000;

    private SpiderKeys() {
    }

    /** Deletes every key of {@code spiderId} ({@link Keyspace#spiderGlobs}), found with {@code SCAN}. */
    public static void delete(RedisConnection redis, String spiderId) {
        List<String> keys = new ArrayList<>();
        for (String glob : Keyspace.spiderGlobs(spiderId)) {
            keys.addAll(RedisKeys.scan(redis, glob));
        }
        for (int from = 0; from < keys.size(); from += PER_CALL) {
            redis.sync().unlink(keys.subList(from, Math.min(keys.size(), from + PER_CALL)).toArray(String[]::new));
        }
    }
}
