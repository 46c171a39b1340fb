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
     * when {@code dontFilter} is true (a retry), else as the request itself says (a redirect).
     */
    record Reschedule(DownloadRequest request, boolean dontFilter) implements DownloadStep {
        public Reschedule {
            Objects.requireNonNull(request, "request");
        }
    }
}
