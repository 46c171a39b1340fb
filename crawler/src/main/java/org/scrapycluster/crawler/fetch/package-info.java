/**
 * Fetching pages: an asynchronous HTTP/1.1 client with per-host connection pools and limits, timeouts, size
 * limits, decompression, TLS, proxying and an address policy, whose results carry what a crawl result needs
 * (status, headers as lists, body, Scrapy's encoding name, resolved redirect target, timings, error kind).
 */
package org.scrapycluster.crawler.fetch;
