package org.scrapycluster.embedded.origin;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A page of {@code bytes} bytes (10 MiB unless given), streamed in 64 KiB pieces without holding it in
 * memory, for body-size limits: with a Content-Length, or chunked with {@code chunked=true}.
 * {@code /huge?bytes=5000000&chunked=false}.
 */
public final class HugePage implements Route {

    public static final String PATH = "/huge";

    private static final int PIECE = 64 * 1024;
    private static final byte[] FILL = fill();

    /** The path and query of a page of {@code bytes} bytes. */
    public static String path(long bytes, boolean chunked) {
        return PATH + "?bytes=" + bytes + "&chunked=" + chunked;
    }

    @Override
    public void serve(Exchange exchange) {
        long bytes = exchange.longParam("bytes", 10L << 20);
        boolean chunked = "true".equals(exchange.param("chunked"));
        exchange.startBody(200, chunked ? -1 : bytes, "Content-Type", "text/html; charset=utf-8");
        sendNext(exchange, bytes);
    }

    private static void sendNext(Exchange exchange, long remaining) {
        if (remaining == 0) {
            exchange.endBody();
            return;
        }
        if (!exchange.isOpen()) {
            return;
        }
        int size = (int) Math.min(PIECE, remaining);
        byte[] piece = size == PIECE ? FILL : Arrays.copyOf(FILL, size);
        exchange.writeBody(piece, () -> sendNext(exchange, remaining - size));
    }

    private static byte[] fill() {
        byte[] fill = new byte[PIECE];
        byte[] line = "<p>a huge page goes on and on and on</p>\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < fill.length; i++) {
            fill[i] = line[i % line.length];
        }
        return fill;
    }
}
