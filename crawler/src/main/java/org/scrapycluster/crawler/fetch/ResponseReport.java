package org.scrapycluster.crawler.fetch;

import java.util.Set;

import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlResolver;

/**
 * Turns what was read of a response into the {@link FetchResult} the crawler sees, as Scrapy reports it: header
 * values and the reason phrase decoded, the last Content-Encoding value removed (whether {@link BodyDecoder} decoded it
 * or not, as Scrapy's compression middleware pops it), the body's encoding detected under Python's codec names, and a
 * redirect's target resolved.
 */
final class ResponseReport {

    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    private static final byte[] NO_BODY = new byte[0];

    private ResponseReport() {
    }

    /** The result of {@code sent} when no response arrived: status 0, no headers, no body. */
    static FetchResult unanswered(OutgoingRequest sent, FetchError error, String message, FetchTimings timings) {
        return new FetchResult(sent.url(), 0, "", HeaderMap.empty(), NO_BODY, null, sent.sentHeaders(), null, error, message,
                timings);
    }

    /**
     * The result of {@code sent} once its status line and headers were read.
     *
     * @param status     the status read, whatever number it is (a server may send {@code 000})
     * @param reason     the reason phrase as read: each byte one char (ISO-8859-1)
     * @param rawHeaders the response headers as read: each byte one char (ISO-8859-1)
     * @param body       the body read (decompressed), null for none
     * @param error      why the fetch failed, null on success
     */
    static FetchResult of(OutgoingRequest sent, int status, String reason, HeaderMap rawHeaders, byte[] body,
            FetchError error, String message, FetchTimings timings) {
        HeaderMap reported = HeaderText.decodeValues(rawHeaders);
        if (!sent.request().method().equals("HEAD")) {
            reported = reported.withoutLast("Content-Encoding"); // decoded or not, as Scrapy's middleware pops it
        }
        byte[] bytes = body == null ? NO_BODY : body;
        DetectedEncoding encoding = EncodingDetector.detect(reported.last("Content-Type"), bytes);
        return new FetchResult(sent.url(), status, HeaderText.value(reason), reported, bytes, encoding, sent.sentHeaders(),
                location(sent.url(), status, rawHeaders), error, message, timings);
    }

    /** The Content-Length announced in {@code headers}, or -1 when there is none or it is no number. */
    static long contentLength(HeaderMap headers) {
        String value = headers.last("Content-Length");
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether a response is one Scrapy's redirect middleware takes: a 301, 302, 303, 307 or 308 with a Location. */
    static boolean isRedirect(int status, HeaderMap rawHeaders) {
        return REDIRECTS.contains(status) && rawHeaders.contains("Location");
    }

    /**
     * Where a redirect points, resolved as Scrapy's redirect middleware does: the Location made safe, then
     * joined to the request URL. Null when this is no redirect or the Location is unusable.
     */
    private static String location(String url, int status, HeaderMap rawHeaders) {
        if (!isRedirect(status, rawHeaders)) {
            return null;
        }
        String location = rawHeaders.last("Location");
        try {
            return UrlResolver.resolve(url, UrlEscaper.escape(HeaderText.urlFromHeader(location)));
        } catch (InvalidUrlException e) {
            return null;
        }
    }
}
