package org.scrapycluster.common.redis;

import java.util.ArrayList;
import java.util.List;

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
        ScanArgs args = ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT);
        List<String> keys = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.sync().scan(cursor, args);
            keys.addAll(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
        return keys.stream().distinct().toList();
    }
}
