package org.scrapycluster.crawler.node;

import java.util.List;

import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The longest URL a spider's request may have ({@code URLLENGTH_LIMIT}, Scrapy's setting, 2083 by default): a longer
 * one is dropped before it is filed, as Scrapy's URL length spider middleware, on in the original, dropped it. Such
 * URLs are mostly crawler traps (a path that repeats itself, state carried in every link), and each costs a queue
 * member of its size. Dropped requests are counted ({@code crawler_requests_too_long_total}) and said at INFO once
 * per domain of the page they were found on, then at DEBUG. Seeds, retries and redirects are not limited, as in
 * Scrapy. 0 sets no limit. Thread-safe.
 */
final class UrlLengthLimit {

    private static final Logger LOG = LoggerFactory.getLogger(UrlLengthLimit.class);
    /** The characters of a dropped URL the log shows. */
    private static final int SHOWN = 200;

    private final int limit;
    private final CrawlerMetrics metrics;
    private final SaidOnce domains = new SaidOnce("domain");

    /** @param limit the longest URL allowed, in characters; 0 for no limit */
    UrlLengthLimit(int limit, CrawlerMetrics metrics) {
        this.limit = limit;
        this.metrics = metrics;
    }

    /** The requests of {@code requests}, made by a spider from the page of {@code page} on {@code domain}, whose URL is not too long. */
    List<CrawlRequest> within(List<CrawlRequest> requests, CrawlRequest page, String domain) {
        if (limit == 0 || requests.stream().allMatch(request -> request.url().length() <= limit)) {
            return requests;
        }
        return requests.stream().filter(request -> {
            if (request.url().length() <= limit) {
                return true;
            }
            dropped(request, page, domain);
            return false;
        }).toList();
    }

    private void dropped(CrawlRequest request, CrawlRequest page, String domain) {
        metrics.requestTooLong();
        String url = request.url();
        domains.say(LOG, Level.INFO, domain, event -> event
                        .addKeyValue("url", url.length() > SHOWN ? url.substring(0, SHOWN) + "..." : url)
                        .addKeyValue("url_length", url.length()).addKeyValue("page", page.url()).addKeyValue("domain", domain)
                        .addKeyValue("appid", page.appid()).addKeyValue("crawlid", page.crawlid()),
                "Ignoring link (url length > " + limit + ", URLLENGTH_LIMIT)");
    }
}
