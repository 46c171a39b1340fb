package org.scrapycluster.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What came back for a {@link DownloadRequest}: a response of any status, or a failure. */
public interface DownloadResponse {

    /** The URL fetched. */
    String url();

    /** The HTTP status; 0 when the download failed. */
    int status();

    /** The response headers, name → values in arrival order; empty when the download failed. */
    Map<String, List<String>> headers();

    /** The first value of header {@code name} (any case). */
    Optional<String> header(String name);

    /** Whether no usable response arrived (a network error, a timeout, a body over the size limit). */
    boolean failed();

    /** Whether a failure may pass if the request is tried again (a network error or a timeout). */
    boolean retryable();

    /** Why the download failed, empty when it did not. */
    Optional<String> failure();
}
