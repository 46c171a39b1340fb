package org.scrapycluster.crawler.request;

import java.util.List;

/**
 * Gives a request a spider yields the crawl fields of the request whose page it came from (the
 * original's meta passthrough middleware, docs/compatibility.md §4.10), without overwriting what the spider
 * set. Only the crawl fields of docs/compatibility.md §4.7 travel; framework bookkeeping (redirect counters,
 * download slots) stays behind, and {@code retry_times} starts at 0 for every child — the original
 * copied every key, so children inherited their parent's retries (docs/compatibility.md W13).
 */
public final class MetaPassthrough {

    /** The crawl fields a child inherits when it does not set them itself. */
    public static final List<String> CRAWL_FIELDS = List.of("url", "appid", "crawlid", "spiderid", "priority", "maxdepth",
            "curdepth", "allowed_domains", "allow_regex", "deny_regex", "deny_extensions", "expires", "useragent", "cookie",
            "attrs", "domain_max_pages", "ts", "step");

    private MetaPassthrough() {
    }

    /** {@code child} with every crawl field of {@code parent} it lacks, and {@code retry_times} 0 unless set. */
    public static CrawlRequest inherit(CrawlRequest parent, CrawlRequest child) {
        return new CrawlRequest(child.url(), child.method(), child.headers(), child.body(), child.cookies(),
                new InheritedMeta(child.meta(), parent.meta()), child.dontFilter());
    }
}
