package org.scrapycluster.bench.micro;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.EncodingDetector;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.pipeline.ResultMessage;

/**
 * The Kafka message of one crawled page, written as the crawler writes it: a 15 KB UTF-8 page of the crawl
 * benchmark's site with its 20 links and the headers of a fetch, the body escaped into JSON from its bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ResultMessageBenchmarks {

    /** The writer of the crawler's Kafka pipeline, with the crawler's default settings. */
    private final ResultMessage messages = ResultMessage.from(Settings.defaults("crawler"));
    private final Instant now = Instant.parse("2026-11-27T06:00:00.123456Z");
    private final CrawlResult page = page();

    private static CrawlResult page() {
        byte[] body = SamplePages.html().getFirst().getBytes(StandardCharsets.UTF_8);
        DetectedEncoding encoding = EncodingDetector.detect("text/html; charset=utf-8", body);
        List<Link> links = SamplePages.urls().stream().limit(20).map(url -> new Link(url, "Page")).toList();
        return new CrawlResult("link", "bench", "crawl-1", null, SamplePages.urls().getFirst(), SamplePages.urls().getFirst(), 200,
                "OK", Map.of("Content-Type", List.of("text/html; charset=utf-8"), "Content-Length", List.of(Integer.toString(body.length))),
                Map.of("User-Agent", List.of("Scrapy/2.11 (+https://scrapy.org)"), "Accept-Encoding", List.of("gzip, deflate, br")),
                body, encoding, links, Map.of(), false);
    }

    @Benchmark
    public byte[] encode() {
        return messages.encode(page, now);
    }
}
