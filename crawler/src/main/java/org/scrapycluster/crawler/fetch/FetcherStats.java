package org.scrapycluster.crawler.fetch;

/**
 * A snapshot of the fetcher's load.
 *
 * @param active          fetches holding a slot (connecting or exchanging)
 * @param queued          fetches waiting for a slot
 * @param connections     connections open, busy or idle
 * @param idleConnections kept-alive connections waiting for their next request
 * @param hosts           addresses with a connection pool
 */
public record FetcherStats(int active, int queued, int connections, int idleConnections, int hosts) {
}
