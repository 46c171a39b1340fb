/**
 * What happens between the scheduler and the spider, as Scrapy's middlewares do it: request headers and
 * cookies, retries through Redis, redirects as new requests, and back-off on Retry-After.
 */
package org.scrapycluster.crawler.middleware;
