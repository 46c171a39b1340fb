package org.scrapycluster.crawler.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.scrapycluster.common.queue.EnqueueOutcome;

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

    /** The fetch latency is a histogram of 16 bounds a quantile can be read from, not Micrometer's 74. */
    @Test
    void theFetchLatencyIsAHistogramOfSixteenBuckets() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new CrawlerMetrics(registry, "link", "n1").fetchTime(Duration.ofMillis(3));

        List<String> buckets = registry.scrape().lines().filter(line -> line.startsWith("crawler_fetch_latency_seconds_bucket")).toList();
        assertEquals(17, buckets.size(), String.join("\n", buckets));
        assertTrue(buckets.contains("crawler_fetch_latency_seconds_bucket{node=\"n1\",spider=\"link\",le=\"0.0025\"} 0"), buckets.toString());
        assertTrue(buckets.contains("crawler_fetch_latency_seconds_bucket{node=\"n1\",spider=\"link\",le=\"0.005\"} 1"), buckets.toString());
        assertTrue(buckets.contains("crawler_fetch_latency_seconds_bucket{node=\"n1\",spider=\"link\",le=\"180.0\"} 1"), buckets.toString());
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

    /** Each counter, those made on first use too, says what it counts in the scrape's {@code # HELP} line. */
    /** rate() and increase() count a series' first event only when the series was there before it, at 0. */
    @Test
    void theCountersOfOneSeriesAndEachKindOfFetchFailureStartAtZero() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new CrawlerMetrics(registry, "link", "n1");

        String scraped = registry.scrape();
        assertTrue(scraped.contains("crawler_throttle_waits_total{node=\"n1\",spider=\"link\"} 0.0"), scraped);
        assertTrue(scraped.contains("crawler_links_cut_total{node=\"n1\",spider=\"link\"} 0.0"), scraped);
        assertTrue(scraped.contains("crawler_errors_total{kind=\"read_timeout\",node=\"n1\",spider=\"link\"} 0.0"), scraped);
    }

    @Test
    void everyCounterHasItsHelpText() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CrawlerMetrics metrics = new CrawlerMetrics(registry, "link", "n1");
        metrics.response(200);
        metrics.handOut("wait");
        metrics.enqueued(EnqueueOutcome.QUEUED);
        metrics.error("dns");
        metrics.lease("renewed");
        metrics.leasesCutShort(2);
        metrics.redisRetry("ack");
        metrics.throttleWait();
        metrics.retry();
        metrics.redirect();
        metrics.robotsRefused();
        metrics.binaryResponse();
        metrics.resultTooLarge();

        List<String> help = registry.scrape().lines().filter(line -> line.startsWith("# HELP crawler_")).toList();
        assertEquals(List.of(), help.stream().filter(line -> line.split(" ", 4).length < 4 || line.split(" ", 4)[3].isBlank()).toList());
        assertTrue(help.contains("# HELP crawler_redis_retries_total Redis writes tried again after they failed, by call"), help.toString());
        assertTrue(help.size() >= 13, help.toString());
    }

    /** A status a server makes up is counted under {@code other}, so that such a server cannot add a series a page. */
    @Test
    void aStatusOutsideTheHttpRangeIsCountedAsOther() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CrawlerMetrics metrics = new CrawlerMetrics(registry, "link", "n1");
        for (int status : new int[] {99, 600, 999, 1234567, 42}) {
            metrics.response(status);
        }
        metrics.response(100);
        metrics.response(599);

        List<String> responses = registry.scrape().lines().filter(line -> line.startsWith("crawler_responses_total")).sorted().toList();
        assertEquals(List.of(
                "crawler_responses_total{node=\"n1\",spider=\"link\",status=\"100\"} 1.0",
                "crawler_responses_total{node=\"n1\",spider=\"link\",status=\"599\"} 1.0",
                "crawler_responses_total{node=\"n1\",spider=\"link\",status=\"other\"} 5.0"), responses);
    }
}
