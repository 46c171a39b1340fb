package org.scrapycluster.api;

import java.util.List;
import java.util.Map;

/**
 * A request on its way to the network, as a {@link DownloaderMiddleware} sees it. It is immutable: the
 * {@code with…} methods give a changed copy to hand on in a {@link DownloadStep}.
 */
public interface DownloadRequest {

    /** The URL to fetch. */
    String url();

    /** The HTTP method, upper case. */
    String method();

    /** The headers to send, name → values (the fetcher adds its defaults for the names not given). */
    Map<String, List<String>> headers();

    /** The crawl fields of the request ({@code appid}, {@code crawlid}, {@code retry_times}, …), as JSON values. */
    Map<String, Object> meta();

    /** The domain whose queue and throttle the request came from. */
    String domain();

    /** This request with header {@code name} set to {@code value} on the wire, replacing a value of that name. */
    DownloadRequest withHeader(String name, String value);

    /** This request without header {@code name} on the wire. */
    DownloadRequest withoutHeader(String name);

    /** This request with the crawl fields of {@code changes} set (for a {@link DownloadStep.Reschedule}). */
    DownloadRequest withMeta(Map<String, Object> changes);
}
