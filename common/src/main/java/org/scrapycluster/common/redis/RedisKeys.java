package org.scrapycluster.common.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;

/** Finding keys by pattern without blocking Redis: {@code SCAN}, never {@code KEYS}. */
public final class RedisKeys {

    private static final int SCAN_COUNT = 1000;
    private static final String VERSION_FIELD = "redis_version:";

    private RedisKeys() {
    }

    /**
     * Every key matching the glob {@code pattern}, each once. Keys created or deleted during the
     * scan may or may not be listed, as {@code SCAN} guarantees.
     */
    public static List<String> scan(RedisConnection redis, String pattern) {
        return scanEach(redis, List.of(pattern)).getFirst();
    }

    /**
     * The keys matching each of {@code patterns}, in their order, each key once a pattern, as {@link #scan} finds
     * them. The scans go side by side: the next page of every unfinished scan is asked for together, so a small
     * keyspace costs one round trip for all the patterns instead of one for each.
     */
    public static List<List<String>> scanEach(RedisConnection redis, List<String> patterns) {
        return follow(redis, patterns.stream().map(pattern -> new Scan(ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT))).toList());
    }

    /**
     * Every key of the Redis type {@code type} ({@code string}, {@code zset}, ...), each once, in one pass over the
     * keyspace ({@code SCAN ... TYPE}): for Redis 6.0 and newer, see {@link #scansByType}.
     */
    public static List<String> scanByType(RedisConnection redis, String type) {
        return follow(redis, List.of(new Scan(KeyScanArgs.Builder.type(type).limit(SCAN_COUNT)))).getFirst();
    }

    /** Whether the server takes {@code SCAN ... TYPE}: its {@code redis_version} is 6.0 or newer. */
    public static boolean scansByType(RedisConnection redis) {
        return scansByType(redis.sync().info("server"));
    }

    /** Whether the {@code INFO server} text {@code serverInfo} names a {@code redis_version} of 6.0 or newer. */
    static boolean scansByType(String serverInfo) {
        return serverInfo.lines().filter(line -> line.startsWith(VERSION_FIELD)).findFirst()
                .map(line -> line.substring(VERSION_FIELD.length()).strip().split("\\.")[0])
                .filter(major -> major.matches("\\d{1,4}")).map(major -> Integer.parseInt(major) >= 6).orElse(false);
    }

    /** Follows each of {@code scans} to its end, the next pages of those unfinished asked for together. */
    private static List<List<String>> follow(RedisConnection redis, List<Scan> scans) {
        List<Scan> going = scans;
        while (!going.isEmpty()) {
            List<CompletableFuture<KeyScanCursor<String>>> pages = new ArrayList<>(going.size());
            for (Scan scan : going) {
                pages.add(redis.async().scan(scan.cursor, scan.args).toCompletableFuture());
            }
            for (int i = 0; i < going.size(); i++) {
                going.get(i).take(redis.await(pages.get(i)));
            }
            going = going.stream().filter(scan -> !scan.cursor.isFinished()).toList();
        }
        return scans.stream().map(scan -> List.copyOf(scan.keys)).toList();
    }

    /** One scan: what it asks, where its cursor stands, and what it found so far. */
    private static final class Scan {

        private final ScanArgs args;
        private final Set<String> keys = new LinkedHashSet<>();
        private ScanCursor cursor = ScanCursor.INITIAL;

        Scan(ScanArgs args) {
            this.args = args;
        }

        void take(KeyScanCursor<String> page) {
            keys.addAll(page.getKeys());
            cursor = page;
        }
    }
}
