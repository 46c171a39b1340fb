package org.scrapycluster.api;

import java.util.Objects;

/** What a {@link DownloaderMiddleware} step decides for a request. */
public sealed interface DownloadStep {

    /** Go on with {@code request}: the next middleware, then the network (or the spider, after a response). */
    record Proceed(DownloadRequest request) implements DownloadStep {
        public Proceed {
            Objects.requireNonNull(request, "request");
        }
    }

    /** End the request here, without a result; {@code reason} goes to the log. */
    record Drop(String reason) implements DownloadStep {
        public Drop {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * End the request here and file {@code request} into the crawl's queues instead: past the dupefilter
     * when {@code dontFilter} is true (a retry), else as the request itself says (a redirect). Filed as any request is,
     * it counts against the crawl's page limits. It is filed with its crawl fields ({@link DownloadRequest#withMeta}'s
     * changes among them), not the headers {@code withHeader} set for this fetch.
     */
    record Reschedule(DownloadRequest request, boolean dontFilter) implements DownloadStep {
        public Reschedule {
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * End the request here untried and return it to its queue as it came out: its lease is handed back, and the request
     * is queued again at its own priority, its retries, the crawl's page counts and the dupefilter untouched (within
     * the lease reaper's interval, {@code LEASE_REAP_INTERVAL}). For a request that cannot go now but should later as
     * it is: what {@code robots} does while a host's robots.txt cannot be read. {@code reason} goes to the log.
     */
    record PutBack(String reason) implements DownloadStep {
        public PutBack {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
