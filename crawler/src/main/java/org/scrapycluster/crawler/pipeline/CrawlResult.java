package org.scrapycluster.crawler.pipeline;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.ResultItem;
import org.scrapycluster.common.url.UrlParts;

import org.scrapycluster.crawler.fetch.DetectedEncoding;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * The result item of one page (docs/compatibility.md §4.9), as the spider made it and the pipelines publish it.
 *
 * @param spiderid        the spider that parsed the page (for logs; not in the Kafka message)
 * @param appid           from the request's meta
 * @param crawlid         from the request's meta
 * @param attrs           the request's {@code attrs}, passed through (null when the crawl gave none)
 * @param url             the URL of the request that produced the response, fragment included
 * @param responseUrl     the URL of the response: the request's without its fragment, as Scrapy's {@code response.url}
 * @param statusCode      the HTTP status
 * @param statusMsg       {@code OK}, or the reason phrase when configured
 * @param responseHeaders every response header, name (title case) → values
 * @param requestHeaders  the headers sent, name (title case) → values
 * @param body            the raw body bytes (not copied)
 * @param encoding        the body's detected encoding
 * @param links           the links the spider extracted to follow
 * @param fields          further fields the spider added (a {@code title}, …), name → JSON value
 * @param binary          whether the response is not text ({@code PUBLISH_BINARY_RESPONSES}): its body is then published
 *                        base64-encoded, flagged {@code "body_base64": true}
 */
public record CrawlResult(String spiderid, String appid, String crawlid, Object attrs, String url, String responseUrl,
        int statusCode, String statusMsg, Map<String, List<String>> responseHeaders, Map<String, List<String>> requestHeaders,
        byte[] body, DetectedEncoding encoding, List<Link> links, Map<String, Object> fields, boolean binary) implements ResultItem {

    /** The fields every result message has, which a spider's own fields may not replace. */
    public static final Set<String> MESSAGE_FIELDS = Set.of("appid", "attrs", "body", "body_base64", "body_omitted", "crawlid", "encoding",
            "links", "links_omitted", "request_headers", "response_headers", "response_url", "status_code", "status_msg", "timestamp", "url");

    private static final DetectedEncoding UTF_8 = new DetectedEncoding("utf-8", StandardCharsets.UTF_8);

    public CrawlResult {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(encoding, "encoding");
        responseHeaders = Map.copyOf(responseHeaders);
        requestHeaders = Map.copyOf(requestHeaders);
        links = List.copyOf(links);
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        for (String name : fields.keySet()) {
            if (MESSAGE_FIELDS.contains(name)) {
                throw new IllegalArgumentException("A result item's field '" + name + "' is set by the crawler; choose another name");
            }
        }
    }

    /**
     * The item of a page: appid, crawlid, attrs and spiderid from the request's meta, the rest from the response;
     * {@code binary} when the response is not text.
     */
    public static CrawlResult of(CrawlRequest request, FetchResult fetch, String statusMsg, boolean binary) {
        return new CrawlResult(request.spiderid().orElse(""), request.appid(), request.crawlid(), request.meta().get("attrs"),
                fetch.url(), UrlParts.withoutFragment(fetch.url()), fetch.status(), statusMsg, fetch.headers().toScrapyMap(),
                fetch.requestHeaders().toScrapyMap(), fetch.body(), fetch.encoding() == null ? UTF_8 : fetch.encoding(), List.of(),
                Map.of(), binary);
    }

    /** This item listing {@code newLinks}. */
    public CrawlResult withLinks(List<Link> newLinks) {
        return new CrawlResult(spiderid, appid, crawlid, attrs, url, responseUrl, statusCode, statusMsg, responseHeaders,
                requestHeaders, body, encoding, newLinks, fields, binary);
    }

    /** This item with other {@code attrs}. */
    public CrawlResult withAttrs(Object newAttrs) {
        return new CrawlResult(spiderid, appid, crawlid, newAttrs, url, responseUrl, statusCode, statusMsg, responseHeaders,
                requestHeaders, body, encoding, links, fields, binary);
    }

    /** This item with the further fields {@code newFields} instead of its own. */
    public CrawlResult withFields(Map<String, Object> newFields) {
        return new CrawlResult(spiderid, appid, crawlid, attrs, url, responseUrl, statusCode, statusMsg, responseHeaders,
                requestHeaders, body, encoding, links, newFields, binary);
    }

    @Override
    public List<PageLink> listedLinks() {
        return links.stream().map(link -> new PageLink(link.url(), link.text())).toList();
    }
}
