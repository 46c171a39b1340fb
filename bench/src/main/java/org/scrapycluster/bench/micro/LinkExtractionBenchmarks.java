package org.scrapycluster.bench.micro;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.scrapycluster.crawler.links.LinkExtractor;

/** Link extraction from a crawled page, without filters and with a crawl's allowed domains and regexes. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LinkExtractionBenchmarks {

    private final List<String> pages = SamplePages.html();
    private final List<String> urls = SamplePages.urls();
    private final LinkExtractor unfiltered = LinkExtractor.defaults();
    private final LinkExtractor filtered = LinkExtractor.builder().allowDomains(List.of("127.0.0.2", "127.0.0.3", "127.0.0.4"))
            .allow(List.of("/p/\\d+$")).deny(List.of("logout", "\\?sort=")).build();
    private int next;

    @Benchmark
    public void unfiltered(Blackhole sink) {
        sink.consume(unfiltered.extract(pages.get(next), urls.get(next)));
        next = (next + 1) % pages.size();
    }

    @Benchmark
    public void allowedDomainsAndRegexes(Blackhole sink) {
        sink.consume(filtered.extract(pages.get(next), urls.get(next)));
        next = (next + 1) % pages.size();
    }
}
