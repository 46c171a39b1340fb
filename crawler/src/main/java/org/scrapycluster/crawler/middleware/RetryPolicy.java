package org.scrapycluster.crawler.middleware;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * The original's Redis retry middleware (docs/compatibility.md §4.11): a request whose response has a retry
 * status, or whose fetch failed with a network error, is tried again — not here, but through Redis, so
 * another node may take it — as a copy with {@code retry_times + 1}, crawl priority − 10 and marked
 * don't-filter, while {@code retry_times + 1 ≤ RETRY_TIMES}; after that the caller gives up. Meta
 * {@code dont_retry} turns retries off for a request.
 *
 * @param enabled     {@code RETRY_ENABLED}
 * @param maxRetries  {@code RETRY_TIMES}
 * @param statusCodes {@code RETRY_HTTP_CODES}
 */
public record RetryPolicy(boolean enabled, int maxRetries, Set<Integer> statusCodes) {

    /** How much lower a retried request's crawl priority is. */
    public static final int PRIORITY_DROP = 10;

    public RetryPolicy {
        statusCodes = Set.copyOf(statusCodes);
    }

    /** Whether a response with {@code status} is retried. */
    public boolean retriesStatus(int status) {
        return statusCodes.contains(status);
    }

    /** The retry of {@code request}, or empty when it has been retried enough (or must not be). */
    public Optional<CrawlRequest> retry(CrawlRequest request) {
        if (!enabled || request.flag("dont_retry")) {
            return Optional.empty();
        }
        long retries = request.number("retry_times", 0) + 1;
        if (retries > maxRetries) {
            return Optional.empty();
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("retry_times", retries);
        meta.put("priority", request.priority() - PRIORITY_DROP);
        return Optional.of(request.withMeta(meta).withDontFilter(true));
    }
}
