package org.scrapycluster.api;

import java.util.List;
import java.util.Map;

/**
 * A fetched page as a {@link Spider} sees it: the response and the crawl fields of the request that
 * fetched it. Responses of any status reach the spider (a 404 is a page too); one that is not text ({@link #isText()}
 * false: most PDFs and images) only with the node's {@code PUBLISH_BINARY_RESPONSES}.
 */
public interface Page {

    /** The URL of the response: the request's without its fragment, as Scrapy's {@code response.url}. */
    String url();

    /** The HTTP status. */
    int status();

    /** The response headers, name (title case) → values in arrival order. */
    Map<String, List<String>> headers();

    /** The body, decompressed. Do not modify it. */
    byte[] body();

    /** The body as text, decoded with its detected encoding (malformed bytes replaced). */
    String text();

    /**
     * Whether the body is text links can be read from (HTML, XML, other text), decided as Scrapy decides it: by the
     * Content-Type, else the extension of the Content-Disposition file name or of the URL, else the first bytes of the
     * body (docs/differences.md).
     * A node publishes a page that is not text only with {@code PUBLISH_BINARY_RESPONSES}, its body base64-encoded.
     */
    boolean isText();

    /**
     * The crawl fields of the request ({@code appid}, {@code crawlid}, {@code spiderid}, {@code priority},
     * {@code curdepth}, {@code maxdepth}, {@code attrs}, …), as JSON values: String, Number, Boolean,
     * List, Map or null.
     */
    Map<String, Object> meta();

    /**
     * The page's links that the crawl may follow: those passing every {@link LinkFilter} in
     * {@code LINK_FILTERS} (the built-ins apply the crawl's {@code allowed_domains}, {@code allow_regex},
     * {@code deny_regex} and {@code deny_extensions}), in page order. Empty when the body is not text. Found on the
     * first call and kept: a spider may ask as often as it likes. A {@link LinkFilter} must not ask (they are being
     * found): it is an {@link IllegalStateException}.
     */
    List<PageLink> links();

    /** A whole-number crawl field, or {@code fallback} when it is absent or not a number. */
    default long number(String field, long fallback) {
        return meta().get(field) instanceof Number number ? number.longValue() : fallback;
    }
}
