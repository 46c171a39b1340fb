/**
 * The downloader middlewares around every fetch, as Scrapy's are: loading those {@code DOWNLOADER_MIDDLEWARES}
 * names into a chain, and the built-ins — robots.txt, the crawl's cookies, retries through Redis, back-off on
 * Retry-After, redirects as new requests.
 */
package org.scrapycluster.crawler.middleware;
