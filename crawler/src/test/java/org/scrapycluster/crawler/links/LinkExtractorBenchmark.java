package org.scrapycluster.crawler.links;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.scrapycluster.embedded.origin.SyntheticSite;

/**
 * Link extraction speed on one thread: ~15 KB pages with 20 links (the crawl benchmark's pages) and the
 * reference page. Runs only with {@code -Dscrapycluster.bench=true}; appends to
 * {@code target/benchmarks/links.txt}. Measured, never asserted.
 */
@EnabledIfSystemProperty(named = "scrapycluster.bench", matches = "true")
class LinkExtractorBenchmark {

    private static final long WARM_UP_NANOS = 5_000_000_000L;
    private static final long MEASURE_NANOS = 10_000_000_000L;

    @Test
    void syntheticPages() throws IOException {
        SyntheticSite site = SyntheticSite.builder().seed(2024).domains(50).pagesPerDomain(200).pageBytes(15_000)
                .linksPerPage(20).crossDomainShare(0.2).build();
        List<String> pages = site.pages().subList(0, 64).stream()
                .map(page -> new String(site.render(page, d -> "http://127.0.0." + (d + 2) + ":8080"), StandardCharsets.UTF_8))
                .toList();
        List<String> urls = site.pages().subList(0, 64).stream().map(p -> "http://127.0.0." + (p.domain() + 2) + ":8080" + p.path()).toList();
        measure(pages.getFirst().length() + " B synthetic page, 20 links", pages, urls, LinkExtractor.defaults());
        measure("same, allowed_domains + allow/deny regexes", pages, urls, LinkExtractor.builder()
                .allowDomains(List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")).allow(List.of("/p/\\d+$"))
                .deny(List.of("logout", "\\?sort=")).build());
    }

    @Test
    void referencePage() throws IOException {
        String html = Files.readString(Path.of("src", "test", "resources", "links", "reference-page.html"));
        measure("reference page (35 links, 3 KB)", List.of(html), List.of("http://news.example.com/index.html"),
                LinkExtractor.defaults());
    }

    private static void measure(String what, List<String> pages, List<String> urls, LinkExtractor extractor)
            throws IOException {
        long sink = 0;
        long start = System.nanoTime();
        int i = 0;
        while (System.nanoTime() - start < WARM_UP_NANOS) {
            sink += extractor.extract(pages.get(i % pages.size()), urls.get(i % pages.size())).size();
            i++;
        }
        long count = 0;
        long links = 0;
        start = System.nanoTime();
        long elapsed;
        do {
            int k = (int) (count % pages.size());
            links += extractor.extract(pages.get(k), urls.get(k)).size();
            count++;
            elapsed = System.nanoTime() - start;
        } while (elapsed < MEASURE_NANOS);
        report(String.format(Locale.ROOT, "%-44s %7.0f pages/s on one thread (%.1f µs/page, %.1f links/page) [%d]",
                what, count / (elapsed / 1e9), elapsed / 1e3 / count, links / (double) count, sink % 10));
    }

    private static void report(String line) throws IOException {
        System.out.println(line);
        Path file = Path.of("target", "benchmarks", "links.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
