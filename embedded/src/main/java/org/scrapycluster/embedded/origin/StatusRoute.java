package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;

/**
 * Any status: {@code /status?code=404} answers 404 with its standard reason phrase, or the one given as
 * {@code reason}.
 */
public final class StatusRoute implements Route {

    public static final String PATH = "/status";

    /** The path and query for {@code code}. */
    public static String path(int code) {
        return PATH + "?code=" + code;
    }

    @Override
    public void serve(Exchange exchange) {
        int code = (int) exchange.longParam("code", 200);
        if (code < 100 || code > 999) {
            throw new IllegalArgumentException("not an HTTP status: " + code);
        }
        byte[] body = ("status " + code).getBytes(StandardCharsets.US_ASCII);
        String reason = exchange.param("reason");
        if (reason == null) {
            exchange.send(code, body, "Content-Type", "text/plain");
        } else {
            exchange.send(code, reason, body, "Content-Type", "text/plain");
        }
    }
}
