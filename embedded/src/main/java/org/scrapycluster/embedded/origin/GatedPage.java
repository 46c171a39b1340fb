package org.scrapycluster.embedded.origin;

import java.util.ArrayList;
import java.util.List;

/**
 * A page that is not answered until the test {@link #open opens} its gate: requests that come before wait, their
 * connections open, however long that takes; once open, every page waiting is answered and later ones at once. A
 * test holds a fetch in flight for exactly as long as it needs (while it kills or stops the node that made it), then
 * lets the page be fetched again without waiting. {@code /gated?page=...}: a small text page.
 */
public final class GatedPage implements Route {

    public static final String PATH = "/gated";
    public static final String BODY = "gated page";

    private final List<Exchange> waiting = new ArrayList<>();
    private boolean open;

    /** The path and query of the page called {@code name}. */
    public static String path(String name) {
        return PATH + "?page=" + name;
    }

    @Override
    public void serve(Exchange exchange) {
        synchronized (this) {
            if (!open) {
                waiting.add(exchange);
                return;
            }
        }
        answer(exchange);
    }

    /** Answers the pages waiting, on their own event loops, and every page asked from now on at once. */
    public void open() {
        List<Exchange> answered;
        synchronized (this) {
            open = true;
            answered = List.copyOf(waiting);
            waiting.clear();
        }
        answered.forEach(exchange -> exchange.schedule(() -> answer(exchange), 0));
    }

    private static void answer(Exchange exchange) {
        exchange.sendText(200, "text/plain", BODY);
    }
}
