/**
 * Fetching pages behind the one-method {@link org.scrapycluster.crawler.fetch.Fetcher}, on Reactor Netty's HTTP
 * client ({@link org.scrapycluster.crawler.fetch.ReactorFetcher}; docs/benchmarks.md says why it replaced a
 * hand-written one): per-host and total limits, timeouts, size limits, decompression, TLS, proxying and an address
 * policy, with results that carry what a crawl result needs (status, headers as lists, body, Scrapy's encoding
 * name, resolved redirect target, timings, error kind).
 */
package org.scrapycluster.crawler.fetch;
