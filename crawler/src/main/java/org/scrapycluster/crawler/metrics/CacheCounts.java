package org.scrapycluster.crawler.metrics;

/**
 * What a cache of the node that is not a Caffeine cache counts, reported as a Caffeine cache's are:
 * {@code cache_size}, {@code cache_gets_total{result}}, {@code cache_puts_total}, {@code cache_evictions_total}.
 */
public interface CacheCounts {

    long size();

    long hitCount();

    long missCount();

    long putCount();

    long evictionCount();
}
