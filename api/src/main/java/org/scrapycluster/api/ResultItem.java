package org.scrapycluster.api;

import java.util.List;
import java.util.Map;

/**
 * The result of one crawled page as an {@link ItemPipeline} sees it: what the crawler publishes on
 * {@code <prefix>.crawled_firehose}.
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

    /** The fields the spider added to the item ({@link SpiderOutput#fields()} without {@code attrs}). */
    Map<String, Object> fields();
}
