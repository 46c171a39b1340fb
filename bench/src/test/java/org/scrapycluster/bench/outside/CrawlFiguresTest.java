package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A crawl's figures a page, and their means over crawls. */
class CrawlFiguresTest {

    private static final double EXACT = 1e-9;

    @Test
    void dividesEachProcesssCpuAndTheTimestampsSpanByThePages() {
        CrawlFigures crawl = new CrawlFigures(3, 20_000, Duration.ofMillis(4_000),
                Map.of("standalone", Duration.ofMillis(5_000), "redis", Duration.ofMillis(1_500)),
                Map.of("standalone", Duration.ofMillis(4_400), "redis", Duration.ofMillis(1_400)), Map.of());

        PerPage perPage = crawl.perPage();

        assertEquals(5_000, perPage.pagesPerSecond(), EXACT);
        assertEquals(0.25, perPage.msPerPage().get("standalone"), EXACT);
        assertEquals(0.075, perPage.msPerPage().get("redis"), EXACT);
        assertEquals(0.325, perPage.totalMsPerPage(), EXACT);
        assertEquals(0.22, perPage.toResultsPerPage().get("standalone"), EXACT);
        assertEquals(0.07, perPage.toResultsPerPage().get("redis"), EXACT);
        assertEquals(0.29, perPage.totalToResultsPerPage(), EXACT);
    }

    @Test
    void keepsTheProcessesInTheOrderNamed() {
        Map<String, Duration> cpu = new LinkedHashMap<>();
        cpu.put("standalone", Duration.ofSeconds(1));
        cpu.put("redis", Duration.ofSeconds(1));
        cpu.put("another", Duration.ofSeconds(1));

        assertEquals(List.of("standalone", "redis", "another"),
                List.copyOf(new CrawlFigures(1, 10, Duration.ofSeconds(1), cpu, cpu, Map.of()).perPage().msPerPage().keySet()));
    }

    @Test
    void theMeanIsThatOfEachCrawlsFigure() {
        PerPage mean = PerPage.mean(List.of(
                new PerPage(6_000, Map.of("standalone", 0.25, "redis", 0.07), Map.of("standalone", 0.21, "redis", 0.06)),
                new PerPage(5_000, Map.of("standalone", 0.35, "redis", 0.09), Map.of("standalone", 0.31, "redis", 0.08))));

        assertEquals(5_500, mean.pagesPerSecond(), EXACT);
        assertEquals(0.30, mean.msPerPage().get("standalone"), EXACT);
        assertEquals(0.08, mean.msPerPage().get("redis"), EXACT);
        assertEquals(0.38, mean.totalMsPerPage(), EXACT);
        assertEquals(0.26, mean.toResultsPerPage().get("standalone"), EXACT);
        assertEquals(0.07, mean.toResultsPerPage().get("redis"), EXACT);
        assertEquals(0.33, mean.totalToResultsPerPage(), EXACT);
    }
}
