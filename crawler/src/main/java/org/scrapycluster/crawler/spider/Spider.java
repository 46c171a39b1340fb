package org.scrapycluster.crawler.spider;

/**
 * What a crawler node does with each page it fetched: one result item to publish, and the requests to
 * crawl next. A node runs one spider; its {@link #name()} names the queues it serves
 * ({@code <name>:<domain>:queue}) and the {@code spiderid} of crawl requests meant for it.
 *
 * <p>To add a spider, implement this interface with a public no-argument constructor, list the class in
 * {@code META-INF/services/org.scrapycluster.crawler.spider.Spider} on the class path, and start the
 * crawler with {@code --spider <name>} (or {@code SPIDER_NAME}). Implementations must be thread-safe:
 * pages are parsed on several threads at once. See docs/extending.md.
 */
public interface Spider {

    /** The spider's name: {@code link}, {@code wandering}, or your own (no {@code :}). */
    String name();

    /**
     * Reads one page. The node gives every returned request the crawl fields of the page's request that
     * it does not set itself (appid, crawlid, spiderid, priority, …; see {@code MetaPassthrough}), files it
     * through the dupefilter and page limits, and publishes the item.
     */
    SpiderOutput parse(SpiderResponse response);
}
