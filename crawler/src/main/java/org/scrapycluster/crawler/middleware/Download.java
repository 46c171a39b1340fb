package org.scrapycluster.crawler.middleware;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.api.DownloadRequest;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.crawler.scheduler.LeasedRequest;

/**
 * A leased crawl request on its way through the downloader middlewares: the crawl request as it was
 * handed out (what a retry or redirect is made from), the headers it will carry on the wire, and the failure it ends with
 * instead of a fetch, when a middleware knows it already.
 */
public final class Download implements DownloadRequest {

    private final LeasedRequest lease;
    private final CrawlRequest crawl;
    private final Map<String, List<String>> wire;
    /** The failure this download ends with instead of a fetch; null: it is fetched. */
    private final FetchResult failed;

    private Download(LeasedRequest lease, CrawlRequest crawl, Map<String, List<String>> wire, FetchResult failed) {
        this.lease = lease;
        this.crawl = crawl;
        this.wire = Collections.unmodifiableMap(wire);
        this.failed = failed;
    }

    /** {@code crawl}, handed out under {@code lease}, with its own headers on the wire. */
    public static Download of(LeasedRequest lease, CrawlRequest crawl) {
        return new Download(lease, crawl, new LinkedHashMap<>(crawl.headers()), null);
    }

    /**
     * This download failed already as its fetch would fail, with {@code failure} (of its own URL) in place of the fetch's
     * result: the middlewares see it after the fetch as they see a failed fetch. For a host a fetch to which could not
     * connect a moment ago ({@code robots}).
     */
    Download failedWith(FetchResult failure) {
        return new Download(lease, crawl, wire, failure);
    }

    /** The failure this download ends with instead of a fetch ({@link #failedWith}); empty when it is fetched. */
    Optional<FetchResult> failedAlready() {
        return Optional.ofNullable(failed);
    }

    /** The lease the request was handed out under. */
    public LeasedRequest lease() {
        return lease;
    }

    /** The crawl request. */
    public CrawlRequest crawl() {
        return crawl;
    }

    /** This download with another crawl request (a retry or redirect), its own headers on the wire. */
    public Download withCrawl(CrawlRequest changed) {
        return of(lease, changed);
    }

    /** The HTTP request to send. */
    public FetchRequest fetchRequest() {
        HeaderMap.Builder headers = HeaderMap.builder();
        wire.forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
        return new FetchRequest(crawl.url(), crawl.method(), headers.build(), crawl.body().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String url() {
        return crawl.url();
    }

    @Override
    public String method() {
        return crawl.method();
    }

    @Override
    public Map<String, List<String>> headers() {
        return wire;
    }

    @Override
    public Map<String, Object> meta() {
        return crawl.meta();
    }

    @Override
    public String domain() {
        return lease.domain();
    }

    @Override
    public Download withHeader(String name, String value) {
        Map<String, List<String>> changed = without(name);
        changed.put(name, List.of(value));
        return new Download(lease, crawl, changed, failed);
    }

    @Override
    public Download withoutHeader(String name) {
        return new Download(lease, crawl, without(name), failed);
    }

    /** This request with {@code value} added to header {@code name} on the wire, after any it has. */
    public Download addingHeader(String name, String value) {
        Map<String, List<String>> changed = new LinkedHashMap<>(wire);
        List<String> values = new ArrayList<>(changed.getOrDefault(name, List.of()));
        values.add(value);
        changed.put(name, List.copyOf(values));
        return new Download(lease, crawl, changed, failed);
    }

    @Override
    public Download withMeta(Map<String, Object> changes) {
        return new Download(lease, crawl.withMeta(changes), wire, failed);
    }

    private Map<String, List<String>> without(String name) {
        Map<String, List<String>> changed = new LinkedHashMap<>();
        wire.forEach((key, values) -> {
            if (!key.equalsIgnoreCase(name)) {
                changed.put(key, values);
            }
        });
        return changed;
    }

    /**
     * The crawler's own form of a request a middleware handed on.
     *
     * @throws IllegalStateException when the middleware made a request of its own instead of changing the one it was given
     */
    public static Download from(DownloadRequest request, String middleware) {
        if (request instanceof Download download) {
            return download;
        }
        throw new IllegalStateException("The downloader middleware " + middleware + " handed on a " + request.getClass().getName()
                + "; change the request it was given with its with… methods instead");
    }
}
