package org.scrapycluster.api;

/**
 * What a crawler node does with each page it fetched. A node runs one spider, chosen by
 * {@code SPIDER_NAME} (or {@code --spider}); its {@link #name()} names the queues it serves
 * ({@code <name>:<domain>:queue}) and the {@code spiderid} of the crawl requests meant for it. The
 * shipped spiders are {@code link} and {@code wandering}.
 *
 * <p>Pages are parsed on several threads at once. A spider that throws, an exception or an error of its own code
 * ({@code AssertionError}, {@code StackOverflowError}, …), drops that page: it is logged and counted as
 * {@code crawler_errors_total{kind="spider"}}, the request is acknowledged, and the crawl goes on.
 */
public interface Spider extends CrawlerExtension {

    /** Reads one page: what to publish about it and what to crawl next. */
    SpiderOutput parse(Page page);
}
