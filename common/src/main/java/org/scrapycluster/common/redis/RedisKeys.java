package org.scrapycluster.common.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

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
        return scanEach(redis, List.of(pattern)).getFirst();
    }

    /**
     * The keys matching each of {@code patterns}, in their order, each key once a pattern, as {@link #scan} finds
     * them. The scans go side by side: the next page of every unfinished scan is asked for together, so a small
     * keyspace costs one round trip for all the patterns instead of one for each.
     */
    public static List<List<String>> scanEach(RedisConnection redis, List<String> patterns) {
        List<Scan> scans = patterns.stream().map(Scan::new).toList();
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

    /** One pattern's scan: where its cursor stands, and what it found so far. */
    private static final class Scan {

        private final ScanArgs args;
        private final Set<String> keys = new LinkedHashSet<>();
        private ScanCursor cursor = ScanCursor.INITIAL;

        Scan(String pattern) {
            this.args = ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT);
        }

        void take(KeyScanCursor<String> page) {
            keys.addAll(page.getKeys());
            cursor = page;
        }
    }
}
