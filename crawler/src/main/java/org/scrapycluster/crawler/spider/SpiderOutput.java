package org.scrapycluster.crawler.spider;

import java.util.List;
import java.util.Objects;

import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * What a spider made of a page.
 *
 * @param requests the requests to crawl next, in order
 * @param item     the page's result item
 */
public record SpiderOutput(List<CrawlRequest> requests, CrawlResult item) {

    public SpiderOutput {
        requests = List.copyOf(requests);
        Objects.requireNonNull(item, "item");
    }
}
