package org.scrapycluster.crawler.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

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

    @Test
    void prometheusScrapesItInOneFamilyWithTheCaffeineCaches() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CrawlerMetrics metrics = new CrawlerMetrics(registry, "link", "n1");
        Cache<String, String> robots = Caffeine.newBuilder().maximumSize(10).recordStats().build();
        metrics.cache("robots", robots);
        metrics.cache("dupefilter", counts);
        robots.getIfPresent("absent");

        String scrape = registry.scrape();
        assertTrue(scrape.contains("cache_gets_total{cache=\"dupefilter\",node=\"n1\",result=\"hit\",spider=\"link\"} 40.0"), scrape);
        assertTrue(scrape.contains("cache_gets_total{cache=\"robots\",node=\"n1\",result=\"miss\",spider=\"link\"} 1.0"), scrape);
        assertEquals(1, scrape.lines().filter(line -> line.startsWith("# HELP cache_gets_total")).count(), scrape);
    }
}
