package org.scrapycluster.crawler.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class CrawlerMetricsTest {

    /** A cache of the node's own, with fixed counts. */
    private static final class Counts implements CacheCounts {
        @Override
        public long size() {
            return 5;
        }

        @Override
        public long hitCount() {
            return 40;
        }

        @Override
        public long missCount() {
            return 10;
        }

        @Override
        public long putCount() {
            return 12;
        }

        @Override
        public long evictionCount() {
            return 7;
        }
    }

    /** Held by the test as a node holds its caches: the meters hold them weakly. */
    private final Counts counts = new Counts();

    @Test
    void aCacheOfTheNodesOwnIsReportedAsACaffeineCacheIs() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CrawlerMetrics(registry, "link", "n1").cache("dupefilter", counts);

        assertEquals(5, registry.get("cache.size").tags("cache", "dupefilter", "spider", "link", "node", "n1").gauge().value());
        assertEquals(40, registry.get("cache.gets").tags("cache", "dupefilter", "result", "hit").functionCounter().count());
        assertEquals(10, registry.get("cache.gets").tags("cache", "dupefilter", "result", "miss").functionCounter().count());
        assertEquals(12, registry.get("cache.puts").tags("cache", "dupefilter").functionCounter().count());
        assertEquals(7, registry.get("cache.evictions").tags("cache", "dupefilter").functionCounter().count());
    }
}
