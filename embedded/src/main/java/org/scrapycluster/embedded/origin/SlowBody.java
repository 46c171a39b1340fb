package org.scrapycluster.embedded.origin;

import java.util.Arrays;

/**
 * A body that dribbles in, for read-timeout tests: after {@code firstByteDelayMs} the headers (with the full
 * Content-Length), then {@code chunk} bytes every {@code intervalMs} until {@code bytes} are sent.
 * {@code /slow?bytes=1000&chunk=100&intervalMs=200&firstByteDelayMs=0}.
 */
public final class SlowBody implements Route {

    public static final String PATH = "/slow";

    /** The path and query for a slow body with these timings. */
    public static String path(int bytes, int chunk, long intervalMs, long firstByteDelayMs) {
        return PATH + "?bytes=" + bytes + "&chunk=" + chunk + "&intervalMs=" + intervalMs
                + "&firstByteDelayMs=" + firstByteDelayMs;
    }

    @Override
    public void serve(Exchange exchange) {
        int bytes = (int) exchange.longParam("bytes", 1000);
        int chunk = (int) Math.max(1, exchange.longParam("chunk", 100));
        long interval = exchange.longParam("intervalMs", 100);
        long firstByteDelay = exchange.longParam("firstByteDelayMs", 0);
        exchange.schedule(() -> {
            exchange.startBody(200, bytes, "Content-Type", "text/plain");
            sendNext(exchange, bytes, chunk, interval);
        }, firstByteDelay);
    }

    private static void sendNext(Exchange exchange, int remaining, int chunk, long interval) {
        if (remaining == 0) {
            exchange.endBody();
            return;
        }
        int size = Math.min(chunk, remaining);
        byte[] part = new byte[size];
        Arrays.fill(part, (byte) 's');
        exchange.writeBody(part, () -> exchange.schedule(() -> sendNext(exchange, remaining - size, chunk, interval),
                remaining - size == 0 ? 0 : interval));
    }
}
