package org.scrapycluster.crawler.fetch;

import java.time.Duration;

/**
 * Where the time of one fetch went.
 *
 * @param queued          waiting for a free slot under the total and per-host concurrency limits
 * @param connect         resolving, connecting and the TLS handshake; zero on a reused connection
 * @param firstByte       from sending the request to the response's status line
 * @param total           from the call to {@code fetch} to the result
 * @param reusedConnection whether a kept-alive connection carried the request
 */
public record FetchTimings(Duration queued, Duration connect, Duration firstByte, Duration total,
        boolean reusedConnection) {
}
