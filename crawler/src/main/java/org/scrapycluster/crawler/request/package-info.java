/**
 * Crawl requests as the crawler handles them: read from either queue member shape, written back in the
 * serialized-request shape Python crawlers read, with their cookies and the crawl fields children inherit.
 */
package org.scrapycluster.crawler.request;
