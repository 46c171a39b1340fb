/**
 * Fetching pages behind the one-method {@link org.scrapycluster.crawler.fetch.Fetcher}: the crawler's own
 * asynchronous HTTP/1.1 client on Netty ({@link org.scrapycluster.crawler.fetch.HttpFetcher}; docs/benchmarks.md
 * compares it with the JDK's client and with Reactor Netty's). It keeps per-host limits, timeouts, size limits,
 * decompression, TLS, proxying and an address policy, and its results carry what a crawl result needs (status,
 * headers as lists, body, Scrapy's encoding name, resolved redirect target, timings, error kind).
 */
package org.scrapycluster.crawler.fetch;
