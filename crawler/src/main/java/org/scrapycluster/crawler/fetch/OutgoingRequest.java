package org.scrapycluster.crawler.fetch;

import java.util.Map;
import java.util.Optional;

import org.scrapycluster.common.http.HeaderValue;
import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlEscaper;
import org.scrapycluster.common.url.UrlParts;

/**
 * A request checked and ready to send: its escaped URL, the scheme, host and port it goes to, the request
 * target of its first line, and the headers sent (the defaults, each replaced by the request's own header of
 * the same name, then the request's others).
 *
 * @param request     the request as the crawler gave it
 * @param url         the escaped URL
 * @param key         scheme, host and port
 * @param target      path and query, or the absolute URL when sent to a proxy in plain HTTP
 * @param sentHeaders the headers sent, Host aside (added on the way out, unless the request sets its own)
 */
record OutgoingRequest(FetchRequest request, String url, HostKey key, String target, HeaderMap sentHeaders) {

    /** The headers every request carries unless it sets its own: Scrapy's defaults. */
    static HeaderMap defaultHeaders(String userAgent) {
        return HeaderMap.of(
                "Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "Accept-Language", "en",
                "User-Agent", userAgent,
                "Accept-Encoding", "gzip,deflate");
    }

    /**
     * Checks {@code request} and works out what to send.
     *
     * @param defaults    the default headers
     * @param viaProxy    whether the request goes through a proxy: in plain HTTP it names the absolute URL, in
     *                    HTTPS it is tunnelled, without a Proxy-Authorization of its own
     * @throws IllegalArgumentException when the request cannot be sent, saying why
     */
    static OutgoingRequest of(FetchRequest request, HeaderMap defaults, boolean viaProxy) {
        String url;
        UrlParts parts;
        try {
            url = UrlEscaper.escape(request.url());
            parts = UrlParts.split(url);
        } catch (InvalidUrlException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        boolean https = switch (parts.scheme()) {
            case "https" -> true;
            case "http" -> false;
            default -> throw new IllegalArgumentException("only http and https URLs can be fetched: " + request.url());
        };
        String host = parts.hostname();
        if (host.isEmpty() || !isAsciiHost(host)) {
            throw new IllegalArgumentException("no usable host name in " + request.url());
        }
        IpLiterals.parse(host); // a numeric host that is no address is refused here, before it takes a slot
        int port;
        try {
            port = parts.port();
        } catch (InvalidUrlException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (port == 0) {
            throw new IllegalArgumentException("port 0 cannot be fetched: " + request.url());
        }
        HostKey key = new HostKey(https, host, port < 0 ? (https ? 443 : 80) : port);
        String target = (parts.path().isEmpty() ? "/" : parts.path())
                + (parts.query().isEmpty() ? "" : "?" + parts.query());
        if (viaProxy && !https) {
            target = "http://" + key.hostHeader() + target;
        }
        requireToken(request.method(), "method");
        HeaderMap sent = sentHeaders(defaults, request.headers(), viaProxy && https);
        for (Map.Entry<String, String> header : sent.entries()) {
            requireToken(header.getKey(), "header name");
            requireHeaderValue(header.getKey(), header.getValue());
        }
        return new OutgoingRequest(request, url, key, target, sent);
    }

    /** @param tunnelled whether the request goes through a proxy's tunnel, where the origin gets no Proxy-Authorization, as in Scrapy */
    private static HeaderMap sentHeaders(HeaderMap defaults, HeaderMap own, boolean tunnelled) {
        HeaderMap.Builder sent = HeaderMap.builder();
        for (Map.Entry<String, String> header : defaults.entries()) {
            if (!own.contains(header.getKey())) {
                sent.add(header.getKey(), header.getValue());
            }
        }
        for (Map.Entry<String, String> header : own.entries()) {
            if (!(tunnelled && header.getKey().equalsIgnoreCase("Proxy-Authorization"))) {
                sent.add(header.getKey(), header.getValue());
            }
        }
        return sent.build();
    }

    private static boolean isAsciiHost(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c <= ' ' || c >= 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static void requireToken(String token, String what) {
        boolean valid = !token.isEmpty();
        for (int i = 0; i < token.length() && valid; i++) {
            char c = token.charAt(i);
            valid = c > ' ' && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
        }
        if (!valid) {
            throw new IllegalArgumentException("not a valid HTTP " + what + ": '" + token + "'");
        }
    }

    private static void requireHeaderValue(String name, String value) {
        Optional<String> why = HeaderValue.whyNot(value);
        if (why.isPresent()) {
            throw new IllegalArgumentException("header " + name + " has a character HTTP cannot carry: " + why.get());
        }
    }
}
