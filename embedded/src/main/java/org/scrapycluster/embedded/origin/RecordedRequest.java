package org.scrapycluster.embedded.origin;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One request as it reached the test origin.
 *
 * @param connectionId a number unique to the TCP connection it came on, to see keep-alive reuse
 * @param domainIndex  the test domain whose address it was sent to
 * @param address      that address, dotted
 * @param method       the HTTP method
 * @param uri          the request target as sent (path and query)
 * @param headers      header name as sent → values, in arrival order
 * @param nanoTime     {@link System#nanoTime()} at arrival, for spacing measurements
 * @param time         wall-clock time at arrival
 */
public record RecordedRequest(long connectionId, int domainIndex, String address, String method, String uri,
        Map<String, List<String>> headers, long nanoTime, Instant time) {

    /** The path of {@link #uri()}, without the query. */
    public String path() {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** The first value of a header, matched case-insensitively, or null. */
    public String header(String name) {
        for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
                return entry.getValue().getFirst();
            }
        }
        return null;
    }
}
