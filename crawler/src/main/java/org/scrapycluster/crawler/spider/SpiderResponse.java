package org.scrapycluster.crawler.spider;

import java.util.Locale;
import java.util.Objects;

import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * A page as a spider sees it: the request that fetched it and the response.
 *
 * @param request   the crawl request
 * @param fetch     the response (any status)
 * @param statusMsg the {@code status_msg} of its result item ({@code OK}, or the reason phrase when configured)
 */
public record SpiderResponse(CrawlRequest request, FetchResult fetch, String statusMsg) {

    public SpiderResponse {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(fetch, "fetch");
        Objects.requireNonNull(statusMsg, "statusMsg");
    }

    /** The body as text, decoded with its encoding. */
    public String text() {
        return fetch.text();
    }

    /** The URL of the response. */
    public String url() {
        return fetch.url();
    }

    /**
     * Whether the body is text a link extractor can read: an HTML, XML or text content type, or none
     * (Scrapy reads links of text responses only).
     */
    public boolean isText() {
        String type = fetch.headers().first("Content-Type");
        if (type == null) {
            return true;
        }
        String lower = type.toLowerCase(Locale.ROOT);
        return lower.startsWith("text/") || lower.contains("html") || lower.contains("xml") || lower.contains("json");
    }

    /** The result item of this page with the crawl's appid, crawlid and attrs, and no links. */
    public CrawlResult item() {
        return CrawlResult.of(request, fetch, statusMsg);
    }
}
