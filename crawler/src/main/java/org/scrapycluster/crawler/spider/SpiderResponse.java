package org.scrapycluster.crawler.spider;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.links.ResponseKind;
import org.scrapycluster.crawler.pipeline.CrawlResult;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * A page as a spider sees it: the request that fetched it and the response, with the links the crawl's
 * filters allow, found once however often they are asked for; and what the node makes of the spider's
 * {@link SpiderOutput}.
 */
public final class SpiderResponse implements Page {

    private final CrawlRequest request;
    private final FetchResult fetch;
    private final String statusMsg;
    private final LinkRules rules;
    private final ResponseKind kind;
    private List<PageLink> links;
    private boolean findingLinks;

    /**
     * @param request   the crawl request
     * @param fetch     the response (any status)
     * @param statusMsg the {@code status_msg} of its result item ({@code OK}, or the reason phrase when configured)
     * @param rules     the crawl's link filters and {@code LINK_FILTERS}
     * @param kind      whether the response is HTML (or other text), XML or binary, as Scrapy decides ({@link ResponseKind})
     */
    public SpiderResponse(CrawlRequest request, FetchResult fetch, String statusMsg, LinkRules rules, ResponseKind kind) {
        this.request = Objects.requireNonNull(request, "request");
        this.fetch = Objects.requireNonNull(fetch, "fetch");
        this.statusMsg = Objects.requireNonNull(statusMsg, "statusMsg");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** The page of {@code fetch}, of the kind its headers, URL and body make it. */
    public SpiderResponse(CrawlRequest request, FetchResult fetch, String statusMsg, LinkRules rules) {
        this(request, fetch, statusMsg, rules, ResponseKind.of(fetch.headers().last("Content-Type"),
                fetch.headers().last("Content-Disposition"), UrlParts.withoutFragment(fetch.url()), fetch.body()));
    }

    /** The crawl request that fetched the page. */
    public CrawlRequest request() {
        return request;
    }

    /** Whether the response is HTML (or other text), XML or binary. */
    public ResponseKind kind() {
        return kind;
    }

    @Override
    public String text() {
        return fetch.text();
    }

    @Override
    public String url() {
        return UrlParts.withoutFragment(fetch.url());
    }

    @Override
    public int status() {
        return fetch.status();
    }

    @Override
    public Map<String, List<String>> headers() {
        return fetch.headers().toScrapyMap();
    }

    @Override
    public byte[] body() {
        return fetch.body();
    }

    @Override
    public Map<String, Object> meta() {
        return request.meta();
    }

    /** Whether the body is text a link extractor can read: HTML, XML or other text, as Scrapy decides ({@link ResponseKind}). */
    @Override
    public boolean isText() {
        return kind.isText();
    }

    /**
     * {@inheritDoc} Found on first call, the body parsed and every link filter asked once, and kept for the calls after.
     *
     * @throws IllegalStateException when a link filter asks for them while they are being found
     */
    @Override
    public synchronized List<PageLink> links() {
        if (links == null) {
            if (findingLinks) {
                throw new IllegalStateException("A link filter asked the page for its links while they were being found;"
                        + " it is asked about each link in turn");
            }
            findingLinks = true;
            try {
                links = isText() ? rules.links(this) : List.of();
            } finally {
                findingLinks = false;
            }
        }
        return links;
    }

    /** The requests {@code output} follows, each with the crawl's User-Agent. */
    public List<CrawlRequest> requests(SpiderOutput output) {
        return output.follow().stream().map(next -> LinkRules.follow(request, next.url(), next.meta())).toList();
    }

    /**
     * The result item of this page as {@code output} describes it: its links, its {@code attrs} when it sets
     * them, its further fields.
     *
     * @throws IllegalArgumentException when a further field would replace one the crawler sets
     */
    public CrawlResult item(SpiderOutput output) {
        CrawlResult item = CrawlResult.of(request, fetch, statusMsg, !kind.isText())
                .withLinks(output.links().stream().map(link -> new Link(link.url(), link.text())).toList());
        Map<String, Object> fields = new LinkedHashMap<>(output.fields());
        if (fields.containsKey("attrs")) {
            item = item.withAttrs(fields.remove("attrs"));
        }
        return fields.isEmpty() ? item : item.withFields(fields);
    }
}
