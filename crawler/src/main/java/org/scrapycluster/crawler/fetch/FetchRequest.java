package org.scrapycluster.crawler.fetch;

import java.util.Objects;

/**
 * One HTTP request to fetch. The fetcher adds the default headers (Accept, Accept-Language,
 * Accept-Encoding and its default User-Agent) unless the request sets its own; per-request User-Agent and
 * Cookie headers come from the crawl request (docs/compatibility.md §4.13), anything else (Referer) is passed as given.
 *
 * @param url     the absolute http or https URL; it is made safe (escaped) before sending
 * @param method  the HTTP method, upper case
 * @param headers headers of this request, overriding the defaults of the same name (Host too)
 * @param body    the request body (not copied), empty for none
 * @param bodyCut the length past which the response body is cut, the rest left unread, and the fetch a success
 *                whatever the fetcher's size limit; 0 for that limit, past which the fetch fails
 *                {@link FetchError#TOO_LARGE}
 */
public record FetchRequest(String url, String method, HeaderMap headers, byte[] body, int bodyCut) {

    private static final byte[] NO_BODY = new byte[0];

    public FetchRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        if (bodyCut < 0) {
            throw new IllegalArgumentException("bodyCut must not be negative: " + bodyCut);
        }
    }

    /** A request whose response body is held to the fetcher's size limit. */
    public FetchRequest(String url, String method, HeaderMap headers, byte[] body) {
        this(url, method, headers, body, 0);
    }

    /** A GET of {@code url} with the default headers. */
    public static FetchRequest get(String url) {
        return new FetchRequest(url, "GET", HeaderMap.empty(), NO_BODY);
    }

    /** This request with header {@code name} set to {@code value} (replacing any earlier value). */
    public FetchRequest withHeader(String name, String value) {
        return new FetchRequest(url, method, headers.with(name, value), body, bodyCut);
    }

    /** This request with its own User-Agent. */
    public FetchRequest withUserAgent(String userAgent) {
        return withHeader("User-Agent", userAgent);
    }

    /** This request with a Cookie header ({@code a=1; b=2}). */
    public FetchRequest withCookie(String cookieHeader) {
        return withHeader("Cookie", cookieHeader);
    }

    /** This request with another method and body. */
    public FetchRequest withMethod(String newMethod, byte[] newBody) {
        return new FetchRequest(url, newMethod, headers, newBody, bodyCut);
    }

    /** This request with its response body cut at {@code bytes} (see {@link #bodyCut()}), whatever the size limit. */
    public FetchRequest withBodyCut(int bytes) {
        return new FetchRequest(url, method, headers, body, bytes);
    }
}
