package org.scrapycluster.embedded.origin;

/**
 * Rate limiting, for back-off tests: 429 with {@code Retry-After: <retryAfter>} (seconds) the first
 * {@code times} requests for a URL (every time when {@code times} is absent), then a small page.
 * {@code /429?retryAfter=2&times=1}.
 */
public final class TooManyRequests implements Route {

    public static final String PATH = "/429";

    private final PerUrlCounter counter = new PerUrlCounter();

    /** The path and query of a URL that is refused {@code times} times with this Retry-After. */
    public static String path(int retryAfterSeconds, int times) {
        return PATH + "?retryAfter=" + retryAfterSeconds + "&times=" + times;
    }

    @Override
    public void serve(Exchange exchange) {
        long times = exchange.longParam("times", Long.MAX_VALUE);
        long retryAfter = exchange.longParam("retryAfter", 1);
        if (counter.previous(exchange) < times) {
            exchange.sendText(429, "text/plain", "slow down", "Retry-After", Long.toString(retryAfter));
        } else {
            exchange.sendText(200, "text/html; charset=utf-8", "<html><body>let through</body></html>");
        }
    }
}
