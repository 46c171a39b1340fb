package org.scrapycluster.crawler.request;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request of a crawl, as a Scrapy request carries it: what to fetch (URL, method, headers, body,
 * cookies), the crawl fields in {@code meta} (docs/compatibility.md §4.7: {@code appid}, {@code crawlid},
 * {@code spiderid}, {@code priority}, {@code curdepth}, {@code retry_times}, …) and whether it bypasses
 * the dupefilter. Immutable; the {@code with…} methods return a changed copy, sharing what did not change.
 *
 * @param url        the absolute URL
 * @param method     the HTTP method, upper case
 * @param headers    headers set by the crawl (User-Agent), name → values
 * @param body       the request body, empty for none
 * @param cookies    cookies sent with the request, name → value (never the server's)
 * @param meta       the crawl fields, JSON values (String, Number, Boolean, List, Map or null)
 * @param dontFilter whether the dupefilter is skipped (retries)
 */
public record CrawlRequest(String url, String method, Map<String, List<String>> headers, String body,
        Map<String, String> cookies, Map<String, Object> meta, boolean dontFilter) {

    public CrawlRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(body, "body");
        headers = FrozenMap.copyOf(headers);
        cookies = FrozenMap.copyOf(cookies);
        meta = FrozenMap.copyOf(meta);
    }

    /** A GET of {@code url} with {@code meta} and nothing else. */
    public static CrawlRequest get(String url, Map<String, Object> meta) {
        return new CrawlRequest(url, "GET", Map.of(), "", Map.of(), meta, false);
    }

    /** The crawl's application, or empty when the meta has none. */
    public String appid() {
        return text("appid").orElse("");
    }

    /** The crawl id, or empty when the meta has none. */
    public String crawlid() {
        return text("crawlid").orElse("");
    }

    /** The spider whose queues the request belongs to, when the meta says. */
    public Optional<String> spiderid() {
        return text("spiderid").filter(id -> !id.isEmpty());
    }

    /** The crawl priority (not the framework's request priority), 0 when absent. */
    public long priority() {
        return number("priority", 0);
    }

    /** A numeric meta field as a long, or {@code fallback} when it is absent or not a number. */
    public long number(String field, long fallback) {
        return meta.get(field) instanceof Number number ? number.longValue() : fallback;
    }

    /**
     * Whether a meta field is set, as Python reads a value in an {@code if}: not absent, null, false, 0, empty text or
     * an empty list or object. A request written by a Python component may say {@code 1} for {@code true}.
     */
    public boolean flag(String field) {
        return switch (meta.get(field)) {
            case null -> false;
            case Boolean set -> set;
            case Number number -> number.doubleValue() != 0;
            case String text -> !text.isEmpty();
            case Collection<?> items -> !items.isEmpty();
            case Map<?, ?> entries -> !entries.isEmpty();
            default -> true;
        };
    }

    /** A text meta field, when present and a string. */
    public Optional<String> text(String field) {
        return meta.get(field) instanceof String value ? Optional.of(value) : Optional.empty();
    }

    /** A list meta field of strings, or null when it is absent or null (the crawl did not give it). */
    public List<String> textList(String field) {
        if (!(meta.get(field) instanceof List<?> values)) {
            return null;
        }
        return values.stream().map(String::valueOf).toList();
    }

    /** The first value of header {@code name} (case-insensitive), when set. */
    public Optional<String> header(String name) {
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
                return Optional.of(header.getValue().getFirst());
            }
        }
        return Optional.empty();
    }

    /** Whether its URL's scheme is http or https, in any case: the only ones a crawler fetches. */
    public boolean isHttp() {
        return url.regionMatches(true, 0, "http:", 0, 5) || url.regionMatches(true, 0, "https:", 0, 6);
    }

    /** This request for another URL. */
    public CrawlRequest withUrl(String newUrl) {
        return new CrawlRequest(newUrl, method, headers, body, cookies, meta, dontFilter);
    }

    /** This request with another method and body (a redirect to GET drops the body). */
    public CrawlRequest withMethod(String newMethod, String newBody) {
        return new CrawlRequest(url, newMethod, headers, newBody, cookies, meta, dontFilter);
    }

    /** This request with meta {@code changes} applied over its meta. */
    public CrawlRequest withMeta(Map<String, Object> changes) {
        LinkedHashMap<String, Object> changed = new LinkedHashMap<>(meta);
        changed.putAll(changes);
        return new CrawlRequest(url, method, headers, body, cookies, FrozenMap.owning(changed), dontFilter);
    }

    /** This request with header {@code name} set to the one {@code value}, replacing any of that name. */
    public CrawlRequest withHeader(String name, String value) {
        LinkedHashMap<String, List<String>> changed = headersWithout(name);
        changed.put(name, List.of(value));
        return new CrawlRequest(url, method, FrozenMap.owning(changed), body, cookies, meta, dontFilter);
    }

    /** This request without header {@code name}. */
    public CrawlRequest withoutHeader(String name) {
        return new CrawlRequest(url, method, FrozenMap.owning(headersWithout(name)), body, cookies, meta, dontFilter);
    }

    private LinkedHashMap<String, List<String>> headersWithout(String name) {
        LinkedHashMap<String, List<String>> kept = new LinkedHashMap<>();
        headers.forEach((key, values) -> {
            if (!key.equalsIgnoreCase(name)) {
                kept.put(key, values);
            }
        });
        return kept;
    }

    /** This request with these cookies instead of its own. */
    public CrawlRequest withCookies(Map<String, String> newCookies) {
        return new CrawlRequest(url, method, headers, body, newCookies, meta, dontFilter);
    }

    /** This request, bypassing the dupefilter or not. */
    public CrawlRequest withDontFilter(boolean value) {
        return new CrawlRequest(url, method, headers, body, cookies, meta, value);
    }
}
