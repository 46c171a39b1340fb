package org.scrapycluster.crawler.fetch;

import java.util.Optional;

/**
 * What came of one fetch: the response (status, reason, headers, decoded body and its encoding), the request
 * headers sent, where a redirect points, the timings — or, when it failed, why.
 *
 * <p>A response of any status is a success ({@link #error()} is null); redirects are not followed, their
 * target is in {@link #location()}. When the body exceeded the size limit, {@code error} is
 * {@link FetchError#TOO_LARGE} and the status, headers and the body read so far are kept.
 *
 * @param url            the URL fetched, in the escaped form that was sent
 * @param status         the HTTP status, 0 when no response arrived (or the server sent {@code 000}: {@link #ok()} tells)
 * @param reason         the reason phrase, empty when no response arrived
 * @param headers        the response headers in arrival order; the last Content-Encoding value is removed (except
 *                       for a HEAD), decoded or not, as Scrapy's compression middleware does
 * @param body           the body, decompressed (not copied; do not modify)
 * @param encoding       the body's encoding as Scrapy reports it, null when no response arrived
 * @param requestHeaders the headers sent (Host and other transport headers aside)
 * @param location       the redirect target resolved against {@code url} for a 301/302/303/307/308, else null
 * @param error          why there is no usable response, null on success
 * @param errorMessage   a description of the error, null on success
 * @param timings        where the time went
 */
public record FetchResult(String url, int status, String reason, HeaderMap headers, byte[] body,
        DetectedEncoding encoding, HeaderMap requestHeaders, String location, FetchError error, String errorMessage,
        FetchTimings timings) {

    /** True when a complete response arrived (of any status). */
    public boolean ok() {
        return error == null;
    }

    /** The redirect target, when this is a redirect with a usable Location. */
    public Optional<String> redirectLocation() {
        return Optional.ofNullable(location);
    }

    /** The body decoded with its encoding, malformed bytes replaced; empty when there is no body. */
    public String text() {
        if (body.length == 0 || encoding == null) {
            return "";
        }
        return encoding.decode(body);
    }

    /**
     * This failure, of a fetch that could not connect to its host ({@link FetchError#unconnected}), as the failure of a
     * fetch of {@code url} on the same origin, which would have met it too: unsent, its message naming the fetch that met it.
     */
    public FetchResult asFailureOf(String url) {
        return new FetchResult(url, 0, "", HeaderMap.empty(), body, null, HeaderMap.empty(), null, error,
                errorMessage + " (fetching " + this.url + ")", timings);
    }

    @Override
    public String toString() {
        return "FetchResult[" + url + " " + (error == null ? status + " " + reason + ", " + body.length + " bytes"
                : error + ": " + errorMessage) + "]";
    }
}
