/**
 * Fetching pages behind the one-method {@link org.scrapycluster.crawler.fetch.Fetcher}: the crawler's own
 * asynchronous HTTP/1.1 client on Netty ({@link org.scrapycluster.crawler.fetch.HttpFetcher}) and the same on
 * Reactor Netty's client ({@link org.scrapycluster.crawler.fetch.ReactorFetcher}), chosen by
 * {@code DOWNLOAD_CLIENT} (docs/benchmarks.md compares them). Both keep per-host limits, timeouts, size limits,
 * decompression, TLS, proxying and an address policy, and their results carry what a crawl result needs
 * (status, headers as lists, body, Scrapy's encoding name, resolved redirect target, timings, error kind).
 */
package org.scrapycluster.crawler.fetch;
