package org.scrapycluster.crawler.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * End-to-end crawl throughput of one node, everything in this JVM (Kafka, ZooKeeper, the origin; Redis as a
 * child process): 200 domains × 50 pages of ~15 KB with 20 links, a depth-2 crawl from page 0 of every
 * domain, results read back from Kafka ({@code -Dscrapycluster.bench.compression=lz4} compresses them). Runs only with {@code -Dscrapycluster.bench=true}; prints pages/s and
 * appends it to {@code target/benchmarks/crawler.txt}. Speed is measured here, never asserted.
 */
@EnabledIfSystemProperty(named = "scrapycluster.bench", matches = "true")
@ExtendWith(SharedStack.class)
class CrawlerBenchmark {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(2024).domains(200).pagesPerDomain(50).pageBytes(15_000)
            .linksPerPage(20).crossDomainShare(0.2).build();
    private static final int CONCURRENCY = Integer.getInteger("scrapycluster.bench.concurrency", 500);
    private static final String COMPRESSION = System.getProperty("scrapycluster.bench.compression", "none");

    private final EmbeddedStack stack;

    CrawlerBenchmark(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void pagesPerSecondFromSeedToKafka() throws IOException {
        int expected = countReachable();
        try (TestOrigin origin = TestOrigin.builder().site(SITE).requestLogCapacity(0).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("QUEUE_HITS", 1_000_000).set("QUEUE_WINDOW", 1).set("QUEUE_MODERATED", false)
                    .set("CONCURRENT_REQUESTS", CONCURRENCY).set("CONCURRENT_REQUESTS_PER_DOMAIN", 8)
                    .set("SCHEDULER_HANDOUT_CALLS", 64).set("DOWNLOAD_TIMEOUT", 30)
                    .set("KAFKA_CLIENT_PROPERTIES", "{compression.type: " + COMPRESSION + "}");
            bed.startNode();
            long start = System.nanoTime();
            for (int domain = 0; domain < SITE.domains(); domain++) {
                Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(new PageRef(domain, 0)), "bench-" + domain);
                seed.put("maxdepth", 2);
                bed.seed(seed);
            }
            int received = bed.awaitCount(expected, Duration.ofMinutes(5));
            double seconds = (System.nanoTime() - start) / 1e9;
            Runtime runtime = Runtime.getRuntime();
            String line = String.format("crawler end-to-end: %d pages in %.1f s = %.0f pages/s (concurrency %d, compression %s, %d cores, heap used %d MiB)",
                    received, seconds, received / seconds, CONCURRENCY, COMPRESSION, runtime.availableProcessors(),
                    (runtime.totalMemory() - runtime.freeMemory()) >> 20);
            System.out.println(line);
            Path out = Path.of("target", "benchmarks", "crawler.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** The pages the crawls reach: each crawl (its own dupefilter) fetches what lies within two hops of its seed. */
    private static int countReachable() {
        int pages = 0;
        for (int domain = 0; domain < SITE.domains(); domain++) {
            pages += SITE.reachable(new PageRef(domain, 0), 2, page -> true).size();
        }
        return pages;
    }
}
