package org.scrapycluster.crawler.pipeline;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.links.Link;

/**
 * The crawl results the pipeline tests publish: an HTML page of {@code http://shop.test/a}, crawled by the {@code link}
 * spider for crawl {@code crawl1} of app {@code app}, in UTF-8, without links; each test changes what it is about.
 */
final class CrawledPage {

    static final DetectedEncoding UTF_8 = new DetectedEncoding("utf-8", StandardCharsets.UTF_8);

    private String appid = "app";
    private String crawlid = "crawl1";
    private Object attrs = Map.of();
    private String url = "http://shop.test/a";
    private Map<String, List<String>> responseHeaders = Map.of("Content-Type", List.of("text/html"));
    private byte[] body;
    private DetectedEncoding encoding = UTF_8;
    private List<Link> links = List.of();
    private boolean binary;

    private CrawledPage(byte[] body) {
        this.body = body;
    }

    /** A page whose body is {@code body} in UTF-8. */
    static CrawledPage of(String body) {
        return of(body.getBytes(StandardCharsets.UTF_8));
    }

    static CrawledPage of(byte[] body) {
        return new CrawledPage(body);
    }

    CrawledPage appid(String appid) {
        this.appid = appid;
        return this;
    }

    CrawledPage crawlid(String crawlid) {
        this.crawlid = crawlid;
        return this;
    }

    CrawledPage attrs(Object attrs) {
        this.attrs = attrs;
        return this;
    }

    /** The page's address, which is also the address its response came from. */
    CrawledPage url(String url) {
        this.url = url;
        return this;
    }

    CrawledPage responseHeaders(Map<String, List<String>> responseHeaders) {
        this.responseHeaders = responseHeaders;
        return this;
    }

    CrawledPage encoding(DetectedEncoding encoding) {
        this.encoding = encoding;
        return this;
    }

    CrawledPage links(List<Link> links) {
        this.links = links;
        return this;
    }

    CrawledPage binary(boolean binary) {
        this.binary = binary;
        return this;
    }

    CrawlResult result() {
        return new CrawlResult("link", appid, crawlid, attrs, url, url, 200, "OK", responseHeaders, Map.of(), body, encoding, links,
                Map.of(), binary);
    }
}
