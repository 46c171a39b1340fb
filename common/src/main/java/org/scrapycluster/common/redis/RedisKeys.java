package org.scrapycluster.common.redis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;

/** Finding keys by pattern without blocking Redis: {@code SCAN}, never {@code KEYS}. */
public final class RedisKeys {

    private static final int SCAN_COUNT = 1000;

    private RedisKeys() {
    }

    /**
     * Every key matching the glob {@code pattern}, each once. Keys created or deleted during the
     * scan may or may not be listed, as {@code SCAN} guarantees.
     */
    public static List<String> scan(RedisConnection redis, String pattern) {
        Set<String> keys = new LinkedHashSet<>();
        walk(redis, ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT), keys::addAll);
        return List.copyOf(keys);
    }

    /**
     * The keys matching each of {@code patterns}, in their order, each key once a pattern, as {@link #scan} finds
     * them, from one pass over the keyspace ({@link #matchEach}).
     */
    public static List<List<String>> scanEach(RedisConnection redis, List<String> patterns) {
        return matchEach(redis, patterns.stream().map(Glob::compile).toList());
    }

    /**
     * The keys matching each of {@code globs}, in their order, each key once a glob, from one pass over the keyspace.
     * Redis walks every key for a {@code SCAN} whatever its {@code MATCH}, and the walk is what costs it (about a
     * millisecond a thousand keys, a pass that matches nothing as much as one that answers every key:
     * docs/operations.md "Scans of the keyspace"), so several globs are matched here against every key of one
     * unfiltered pass, a page at a time, rather than each costing Redis a pass of its own; one glob is Redis's
     * {@code MATCH}.
     */
    public static List<List<String>> matchEach(RedisConnection redis, List<Glob> globs) {
        if (globs.size() == 1) {
            return List.of(scan(redis, globs.getFirst().toString()));
        }
        return sort(redis, ScanArgs.Builder.limit(SCAN_COUNT), globs);
    }

    /**
     * The keys of the Redis type {@code type} ({@code string}, {@code zset}, ...) matching each of {@code globs}, in
     * their order, from one pass over the keyspace ({@code SCAN ... TYPE}): for Redis 6.0 and newer, see
     * {@link RedisConnection#isRedis6OrNewer}.
     */
    public static List<List<String>> matchEachOfType(RedisConnection redis, String type, List<Glob> globs) {
        return sort(redis, KeyScanArgs.Builder.type(type).limit(SCAN_COUNT), globs);
    }

    /** The keys of one pass of {@code args} matching each of {@code globs}, in their order, each key once a glob. */
    private static List<List<String>> sort(RedisConnection redis, ScanArgs args, List<Glob> globs) {
        List<Set<String>> found = globs.stream().map(glob -> (Set<String>) new LinkedHashSet<String>()).toList();
        walk(redis, args, page -> {
            for (String key : page) {
                for (int i = 0; i < globs.size(); i++) {
                    if (globs.get(i).matches(key)) {
                        found.get(i).add(key);
                    }
                }
            }
        });
        return found.stream().map(List::copyOf).toList();
    }

    /** Follows a {@code SCAN} of {@code args} from the start of the keyspace to its end, handing each page's keys on. */
    private static void walk(RedisConnection redis, ScanArgs args, Consumer<List<String>> pages) {
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.await(redis.async().scan(cursor, args));
            pages.accept(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
    }
}
