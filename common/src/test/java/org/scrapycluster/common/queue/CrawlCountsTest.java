package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.junit.CapturedLog;

/**
 * What the accounting's reader makes of what it cannot read, read again at every completion check: a member of
 * {@code crawls:active} that names no crawl, a field that holds no number. Each is said once, not at every read.
 */
@ExtendWith(TestRedis.class)
class CrawlCountsTest {

    private final RedisConnection redis;
    private final CrawlCounts counts;
    private final String spider = TestRedis.unique("counts");

    CrawlCountsTest(RedisConnection redis) {
        this.redis = redis;
        this.counts = new CrawlCounts(redis);
    }

    @Test
    void aMemberOfTheActiveCrawlsThatNamesNoCrawlIsTakenOutOfThemAndSaidOnce() {
        String unnamed = spider + ":an:app:with:colons";
        try (CapturedLog log = CapturedLog.start(CrawlCounts.class, Level.WARN)) {
            for (int check = 0; check < 2; check++) {
                redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, 0, unnamed); // a crawler's hand-out puts it back
                assertFalse(counts.quietSince(Instant.now(), 0, 100_000).stream().anyMatch(crawl -> crawl.spiderId().equals(spider)));
                assertNull(redis.sync().zscore(Keyspace.CRAWLS_ACTIVE, unnamed));
            }
            assertEquals(1, log.lines().stream().filter(line -> line.contains("names no crawl")).count());
        }
    }

    /** A crawl made active again at a check's own time leaves that check's candidates, however short the quiet period. */
    @Test
    void aCrawlActiveAtTheQuietBoundIsNotQuiet() {
        CrawlRef crawl = new CrawlRef(spider, "app", "c1");
        Instant bound = Instant.ofEpochMilli(1_700_000_000_000L);
        redis.sync().zadd(Keyspace.CRAWLS_ACTIVE, (double) bound.toEpochMilli(), crawl.name());
        try {
            assertEquals(List.of(), quiet(bound));
            assertEquals(List.of(crawl), quiet(bound.plusMillis(1)));
        } finally {
            redis.sync().zrem(Keyspace.CRAWLS_ACTIVE, crawl.name());
        }
    }

    private List<CrawlRef> quiet(Instant before) {
        return counts.quietSince(before, 0, 100_000).stream().filter(crawl -> crawl.spiderId().equals(spider)).toList();
    }

    @Test
    void anAccountingFieldHoldingNoNumberIsSkippedAndSaidOnce() {
        CrawlRef crawl = new CrawlRef(spider, "app", "c1");
        redis.sync().hset(crawl.accountingKey(), "a.com|1", "2");
        redis.sync().hset(crawl.accountingKey(), "b.com|1", "edited by hand");
        try (CapturedLog log = CapturedLog.start(CrawlCounts.class, Level.WARN)) {
            for (int read = 0; read < 3; read++) {
                assertEquals(List.of("a.com"), List.copyOf(counts.crawl(crawl).orElseThrow().domains().keySet()));
            }
            assertEquals(1, log.lines().size(), String.join("\n", log.lines()));
        }
    }
}
