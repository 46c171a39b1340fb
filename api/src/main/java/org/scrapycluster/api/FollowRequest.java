package org.scrapycluster.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A request a spider asks to crawl next. The node gives it every crawl field of the page's request that
 * {@code meta} does not set (appid, crawlid, spiderid, priority, maxdepth, curdepth, allowed_domains, …),
 * the crawl's User-Agent, and files it through the crawl's dupefilter, page limits, blacklist and expiry
 * into {@code <spiderid>:<domain>:queue}. Setting {@code spiderid} in {@code meta} hands it to another
 * spider's queues.
 *
 * @param url  the absolute URL to fetch (GET)
 * @param meta crawl fields to set on it, JSON values (null among them)
 */
public record FollowRequest(String url, Map<String, Object> meta) {

    public FollowRequest {
        Objects.requireNonNull(url, "url");
        // the JDK's own copy, which the crawler keeps without copying again, unless a value is JSON null, which it refuses
        meta = Objects.requireNonNull(meta, "meta").values().stream().anyMatch(Objects::isNull)
                ? Collections.unmodifiableMap(new LinkedHashMap<>(meta)) : Map.copyOf(meta);
    }
}
