package org.scrapycluster.rest.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * What an endpoint answers: a status, a content type, the body bytes and any further headers.
 *
 * @param status      the HTTP status code
 * @param contentType the {@code Content-Type} of the body
 * @param body        the body bytes
 * @param headers     further headers, by name
 */
public record HttpAnswer(int status, String contentType, byte[] body, Map<String, String> headers) {

    public static final String JSON = "application/json";
    public static final String PLAIN_TEXT = "text/plain; charset=utf-8";

    public HttpAnswer {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
    }

    public HttpAnswer(int status, String contentType, byte[] body) {
        this(status, contentType, body, Map.of());
    }

    /** A UTF-8 text body. */
    public static HttpAnswer text(int status, String contentType, String body) {
        return new HttpAnswer(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** A redirect to {@code location}, without a body. */
    public static HttpAnswer redirect(String location) {
        return new HttpAnswer(301, PLAIN_TEXT, new byte[0], Map.of("Location", location));
    }

    /** This answer with one more header. */
    public HttpAnswer withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new HttpAnswer(status, contentType, body, more);
    }
}
