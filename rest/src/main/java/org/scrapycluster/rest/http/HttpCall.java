package org.scrapycluster.rest.http;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

import io.netty.handler.codec.http.HttpMethod;

/**
 * One HTTP request as an endpoint sees it, copied out of Netty's buffers.
 *
 * @param method      the request method
 * @param path        the path, without the query string
 * @param contentType the {@code Content-Type} header, or empty when there is none
 * @param body        the body bytes (empty when there is none)
 * @param apiKey      the API key presented as {@code Authorization: Bearer <key>} or
 *                    {@code X-Api-Key: <key>}, or null when there is none
 * @param host        the {@code Host} header, or null when there is none
 * @param client      the subject of the client certificate the connection presented (HTTPS with
 *                    {@code REST_TLS_CLIENT_CA_FILE}), or null when it presented none
 * @param identity    who presents {@code apiKey}, as the request's head check identified it (the key is hashed once a
 *                    request); null until the call is dispatched
 */
public record HttpCall(HttpMethod method, String path, String contentType, byte[] body, String apiKey, String host,
        String client, Supplier<Caller> identity) {

    public HttpCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        contentType = contentType == null ? "" : contentType;
        body = body == null ? new byte[0] : body;
    }

    /** A call not dispatched yet, whose caller is not identified, on a connection without a client certificate. */
    public HttpCall(HttpMethod method, String path, String contentType, byte[] body, String apiKey, String host) {
        this(method, path, contentType, body, apiKey, host, null, null);
    }

    /** A call without an API key or a {@code Host} header. */
    public HttpCall(HttpMethod method, String path, String contentType, byte[] body) {
        this(method, path, contentType, body, null, null);
    }

    /** This call, its caller told by {@code identity}. */
    HttpCall identifiedBy(Supplier<Caller> identity) {
        return new HttpCall(method, path, contentType, body, apiKey, host, client, Objects.requireNonNull(identity, "identity"));
    }

    /**
     * Who presents the call's key, as its head check identified it ({@link Caller#ANONYMOUS} when keys are off); on an
     * open path, identified at the first ask.
     *
     * @throws IllegalStateException for a call that was not dispatched
     */
    public Caller caller() {
        if (identity == null) {
            throw new IllegalStateException("the caller of " + this + " is identified when the call is dispatched");
        }
        return identity.get();
    }

    /**
     * Whether the body is declared as JSON, as Flask's {@code request.is_json} decides:
     * {@code application/json} or any {@code application/...+json}, with or without parameters.
     */
    public boolean declaresJson() {
        int semicolon = contentType.indexOf(';');
        String mime = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return mime.equals("application/json") || (mime.startsWith("application/") && mime.endsWith("+json"));
    }

    /** Method and path only: the key is never written anywhere. */
    @Override
    public String toString() {
        return method.name() + " " + path;
    }
}
