package org.scrapycluster.bench.outside;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a crawl from outside cost a page, or the mean of several crawls' figures.
 *
 * @param pagesPerSecond pages a second by the results' own timestamps
 * @param msPerPage      milliseconds of CPU a page of each process named, in the order named
 */
record PerPage(double pagesPerSecond, Map<String, Double> msPerPage) {

    PerPage {
        msPerPage = Collections.unmodifiableMap(new LinkedHashMap<>(msPerPage));
    }

    /** Milliseconds of CPU a page of all the processes named together. */
    double totalMsPerPage() {
        return msPerPage.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The mean of each figure over {@code crawls} (at least one), which name the same processes. */
    static PerPage mean(List<PerPage> crawls) {
        Map<String, Double> msPerPage = new LinkedHashMap<>();
        for (String process : crawls.getFirst().msPerPage().keySet()) {
            msPerPage.put(process, crawls.stream().mapToDouble(crawl -> crawl.msPerPage().get(process)).average().orElseThrow());
        }
        return new PerPage(crawls.stream().mapToDouble(PerPage::pagesPerSecond).average().orElseThrow(), msPerPage);
    }
}
