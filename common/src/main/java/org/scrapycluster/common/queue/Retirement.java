package org.scrapycluster.common.queue;

/**
 * What one retire call ({@link CrawlCounts#retireIfIdleAsync}) did with a quiet crawl
 * (docs/redis-monitor.md "complete").
 */
public sealed interface Retirement {

    /**
     * This call retired the crawl: its announcement is filed in {@code crawls:completed}.
     *
     * @param pages the pages its crawlers published
     */
    record Retired(long pages) implements Retirement {
    }

    /**
     * The crawl still has requests pending, though nothing moved them for a quiet period (no crawler takes them):
     * it was made active again at the Redis server's time, so that completion checks pass it over for another quiet
     * period rather than read it again at each check.
     */
    record Busy() implements Retirement {
    }

    /**
     * The crawl is in its spider's blacklist: it was stopped or expired (by a Python Redis monitor, which keeps no
     * accounting), and was forgotten as {@link CrawlCounts#forget} forgets one, not announced complete.
     */
    record Forgotten() implements Retirement {
    }

    /**
     * The crawl was left as it was: already retired, active after the quiet bound, expired (the expire job's), or in
     * {@code crawls:foreign} while its queues were not read.
     */
    record Kept() implements Retirement {
    }
}
