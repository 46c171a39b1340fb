package org.scrapycluster.api;

import java.util.List;
import java.util.Map;

/**
 * The result of one crawled page as an {@link ItemPipeline} sees it: what the crawler publishes on
 * {@code <prefix>.crawled_firehose}. It is read-only, its maps and lists too: every stage sees the item the spider
 * made, and {@link ItemPipeline#process} returns no other, so a stage cannot change what the stages after it, or
 * {@code kafka}, publish (docs/extending.md, "The item pipeline").
 */
public interface ResultItem {

    /** The URL of the request that produced the page. */
    String url();

    /** The URL of the response. */
    String responseUrl();

    /** The HTTP status. */
    int statusCode();

    /** The crawl's application. */
    String appid();

    /** The crawl's id. */
    String crawlid();

    /** The crawl's {@code attrs} as the spider left them, or null. */
    Object attrs();

    /** The response headers, name (title case) → values. */
    Map<String, List<String>> responseHeaders();

    /** The body bytes. Do not modify them. */
    byte[] body();

    /** The links the spider listed. */
    List<PageLink> listedLinks();

    /**
     * The fields the spider added to the item ({@link SpiderOutput#fields()} without {@code attrs}), read-only: a
     * {@code put} throws {@link UnsupportedOperationException}. A field every result should carry is added by the spider
     * ({@link SpiderOutput#withField}); a stage that derives more from the item writes it to a store or topic of its own.
     */
    Map<String, Object> fields();
}
