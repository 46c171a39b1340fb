package org.scrapycluster.embedded.origin;

/**
 * An unreliable server, for retry tests: {@code status} (503 unless given) the first {@code failures}
 * requests for a URL, with {@code Retry-After} when {@code retryAfter} is given, then 200.
 * {@code /flaky?failures=2&status=503&id=any} — vary {@code id} for independent counters.
 */
public final class FlakyThenOk implements Route {

    public static final String PATH = "/flaky";

    /** The body of the eventual 200. */
    public static final String OK_BODY = "<html><body>finally</body></html>";

    private final PerUrlCounter counter = new PerUrlCounter();

    /** The path and query of a URL that fails {@code failures} times with 503. */
    public static String path(int failures, String id) {
        return PATH + "?failures=" + failures + "&id=" + id;
    }

    @Override
    public void serve(Exchange exchange) {
        long failures = exchange.longParam("failures", 2);
        int status = (int) exchange.longParam("status", 503);
        if (counter.previous(exchange) < failures) {
            String retryAfter = exchange.param("retryAfter");
            String[] headers = retryAfter == null ? new String[0] : new String[] {"Retry-After", retryAfter};
            exchange.sendText(status, "text/plain", "try again", headers);
        } else {
            exchange.sendText(200, "text/html; charset=utf-8", OK_BODY);
        }
    }
}
