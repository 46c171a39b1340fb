package org.scrapycluster.crawler.fetch;

/**
 * A snapshot of the fetcher's load.
 *
 * @param active          fetches holding a slot (connecting or exchanging)
 * @param queued          fetches waiting for a slot
 * @param idleConnections kept-alive connections waiting for their next request
 * @param hosts           host:port pools currently known
 */
public record FetcherStats(int active, int queued, int idleConnections, int hosts) {
}
