package org.scrapycluster.rest.http;

import java.util.Locale;

/**
 * Why the gateway refused a request, with the status and the envelope message it answers (the
 * original's texts where it has one, docs/compatibility.md §6.2). Each is counted in the metric
 * {@code rest_requests_refused_total{reason}}.
 */
public enum Refusal {

    /** Not parseable as HTTP (bad request line, headers too long). */
    MALFORMED_HTTP(400, "The request is not valid HTTP."),
    /** A plain HTTP request to a gateway serving HTTPS ({@code REST_TLS_CERT_FILE}); the connection is closed. */
    PLAIN_HTTP(400, "The gateway serves HTTPS on this port: send the request to https:// instead of http://."),
    /** A body larger than {@code JSON_MAX_DOCUMENT_BYTES}, or a fed request larger than Kafka takes as a record. */
    TOO_LARGE(413, "The payload is too large."),
    /** A body not declared as JSON. */
    CONTENT_TYPE(400, Envelope.MUST_JSON),
    /** A body declared as JSON that is not JSON, not UTF-8, or beyond the JSON limits. */
    MALFORMED_JSON(400, Envelope.MUST_JSON),
    /** JSON that does not match the endpoint's schema. */
    SCHEMA(400, Envelope.BAD_SCHEMA),
    /** A path the gateway does not serve. */
    UNKNOWN_PATH(404, Envelope.DOES_NOT_EXIST),
    /** A method the path does not take. */
    METHOD(405, "The method is not allowed for the requested URL."),
    /** No API key, or one the gateway does not know, where keys are configured. */
    UNAUTHORIZED(401, "A valid API key is required: send Authorization: Bearer <key> or X-Api-Key: <key>."),
    /** A {@code Host} header the gateway does not answer for ({@link org.scrapycluster.common.domain.AllowedHosts}). */
    HOST(403, "The request names a host this gateway does not answer for; add the name to REST_ALLOWED_HOSTS."),
    /** A read key on a call that changes something. */
    FORBIDDEN(403, "This API key may only read."),
    /** A connection beyond {@code REST_MAX_CONNECTIONS}; it is closed after the answer. */
    TOO_MANY_CONNECTIONS(503, "The gateway has too many open connections; try again later."),
    /** A connection that sent no complete request headers within {@code REST_HEADER_TIMEOUT}; it is closed. */
    HEADER_TIMEOUT(408, "The request headers did not arrive in time."),
    /** A request whose body did not arrive in full within {@code REST_BODY_TIMEOUT} of its headers; it is closed. */
    BODY_TIMEOUT(408, "The request body did not arrive in time."),
    /** An {@code Expect} header asking for anything but {@code 100-continue}; the connection is closed. */
    EXPECTATION(417, "The gateway meets no expectation but Expect: 100-continue."),
    /** A {@code Transfer-Encoding} other than {@code chunked} alone ({@link TransferCoding}); the connection is closed. */
    TRANSFER_CODING(501, "The gateway takes no transfer coding but chunked.");

    private final int status;
    private final String message;

    Refusal(int status, String message) {
        this.status = status;
        this.message = message;
    }

    public int status() {
        return status;
    }

    /** The envelope's {@code error.message}. */
    public String message() {
        return message;
    }

    /** The metric tag: {@code malformed_json}, {@code unknown_path}, ... */
    public String reason() {
        return name().toLowerCase(Locale.ROOT);
    }
}
