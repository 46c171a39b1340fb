package org.scrapycluster.bench.outside;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One crawl watched from outside, as docs/benchmarks.md ("How it is measured") counts it.
 *
 * @param number the crawl's number in the run, from 1
 * @param pages  how far the crawled firehose's end offsets moved: the pages crawled
 * @param span   from the first of those records' timestamps to the last's
 * @param cpu    the CPU time each process named used from before the crawl's requests went out to its quiet end, the
 *               quiet period included, in the order named
 * @param threadCpu the same of the first process named, by group of its threads ({@code ProcessUsage.cpuByThread})
 */
record CrawlFigures(int number, long pages, Duration span, Map<String, Duration> cpu, Map<String, Duration> threadCpu) {

    CrawlFigures {
        cpu = Collections.unmodifiableMap(new LinkedHashMap<>(cpu));
        threadCpu = Collections.unmodifiableMap(new LinkedHashMap<>(threadCpu));
    }

    /** Pages a second by the records' timestamps, and milliseconds of CPU a page of each process. */
    PerPage perPage() {
        Map<String, Double> msPerPage = new LinkedHashMap<>();
        cpu.forEach((process, used) -> msPerPage.put(process, used.toNanos() / 1e6 / pages));
        return new PerPage(pages / (span.toNanos() / 1e9), msPerPage);
    }
}
