package org.scrapycluster.bench.outside;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a crawl from outside cost a page, or the mean of several crawls' figures.
 *
 * @param pagesPerSecond   pages a second by the results' own timestamps
 * @param msPerPage        milliseconds of CPU a page of each process named, in the order named, the crawl's quiet end
 *                         included
 * @param toResultsPerPage the same up to the crawl's last results ({@link CrawlFigures#cpuToResults()})
 */
record PerPage(double pagesPerSecond, Map<String, Double> msPerPage, Map<String, Double> toResultsPerPage) {

    PerPage {
        msPerPage = Collections.unmodifiableMap(new LinkedHashMap<>(msPerPage));
        toResultsPerPage = Collections.unmodifiableMap(new LinkedHashMap<>(toResultsPerPage));
    }

    /** Milliseconds of CPU a page of all the processes named together, the quiet end included. */
    double totalMsPerPage() {
        return total(msPerPage);
    }

    /** The same up to the crawl's last results. */
    double totalToResultsPerPage() {
        return total(toResultsPerPage);
    }

    private static double total(Map<String, Double> perProcess) {
        return perProcess.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The mean of each figure over {@code crawls} (at least one), which name the same processes. */
    static PerPage mean(List<PerPage> crawls) {
        return new PerPage(crawls.stream().mapToDouble(PerPage::pagesPerSecond).average().orElseThrow(),
                mean(crawls, PerPage::msPerPage), mean(crawls, PerPage::toResultsPerPage));
    }

    private static Map<String, Double> mean(List<PerPage> crawls, Function<PerPage, Map<String, Double>> figures) {
        Map<String, Double> mean = new LinkedHashMap<>();
        for (String process : figures.apply(crawls.getFirst()).keySet()) {
            mean.put(process, crawls.stream().mapToDouble(crawl -> figures.apply(crawl).get(process)).average().orElseThrow());
        }
        return mean;
    }
}
