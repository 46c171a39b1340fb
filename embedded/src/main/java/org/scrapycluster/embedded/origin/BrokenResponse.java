package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;

/**
 * A server that fails mid-exchange, for network-error handling: {@code /broken?mode=…} where {@code mode} is
 * {@code reset} (TCP reset instead of an answer), {@code close} (connection closed without an answer),
 * {@code truncate} (headers promising 1000 bytes, 100 sent, then close) or {@code garbage} (bytes that are
 * not HTTP).
 */
public final class BrokenResponse implements Route {

    public static final String PATH = "/broken";

    /** The path and query for {@code mode}. */
    public static String path(String mode) {
        return PATH + "?mode=" + mode;
    }

    @Override
    public void serve(Exchange exchange) {
        String mode = exchange.param("mode") == null ? "reset" : exchange.param("mode");
        switch (mode) {
            case "reset" -> exchange.reset();
            case "close" -> exchange.close();
            case "truncate" -> exchange.writeRaw(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"
                    + "x".repeat(100)).getBytes(StandardCharsets.US_ASCII));
            case "garbage" -> exchange.writeRaw("SPEAK FRIEND AND ENTER\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            default -> throw new IllegalArgumentException("mode is reset, close, truncate or garbage, not " + mode);
        }
    }
}
