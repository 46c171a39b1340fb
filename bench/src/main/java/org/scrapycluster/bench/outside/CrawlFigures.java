package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One crawl watched from outside, as docs/benchmarks.md ("How it is measured") counts it.
 *
 * @param number       the crawl's number in the run, from 1
 * @param pages        how far the crawled firehose's end offsets moved: the pages crawled
 * @param span         from the first of those records' timestamps to the last's
 * @param cpu          the CPU time each process named used from before the crawl's requests went out to its quiet end,
 *                     the quiet period included, in the order named
 * @param cpuToResults the same up to the first look at the end offsets that found no more results: the crawl with
 *                     at most the two seconds of its quiet end in which the looks found that out
 * @param threadCpu    the CPU time of the first process named, as {@code cpu}, by group of its threads
 *                     ({@code ProcessUsage.cpuByThread})
 */
record CrawlFigures(int number, long pages, Duration span, Map<String, Duration> cpu, Map<String, Duration> cpuToResults,
        Map<String, Duration> threadCpu) {

    CrawlFigures {
        cpu = Collections.unmodifiableMap(new LinkedHashMap<>(cpu));
        cpuToResults = Collections.unmodifiableMap(new LinkedHashMap<>(cpuToResults));
        threadCpu = Collections.unmodifiableMap(new LinkedHashMap<>(threadCpu));
    }

    /** Pages a second by the records' timestamps, and milliseconds of CPU a page of each process, both ways. */
    PerPage perPage() {
        return new PerPage(pages / (span.toNanos() / 1e9), msPerPage(cpu), msPerPage(cpuToResults));
    }

    private Map<String, Double> msPerPage(Map<String, Duration> used) {
        Map<String, Double> msPerPage = new LinkedHashMap<>();
        used.forEach((process, time) -> msPerPage.put(process, time.toNanos() / 1e6 / pages));
        return msPerPage;
    }
}
