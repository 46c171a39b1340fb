package org.scrapycluster.crawler.node;

import org.scrapycluster.embedded.origin.Exchange;
import org.scrapycluster.embedded.origin.Route;

/**
 * A page at {@value #PATH} linking to itself and to files with extensions ({@code /ext/a.html},
 * {@code /ext/b.pdf}, {@code /ext/c.txt}), which answer small text pages.
 */
final class ExtensionPages implements Route {

    static final String PATH = "/ext";

    @Override
    public void serve(Exchange exchange) {
        if (exchange.path().equals(PATH)) {
            exchange.sendText(200, "text/html; charset=utf-8", "<html><body><a href=\"/ext\">home</a>"
                    + "<a href=\"/ext/a.html\">a</a> <a href=\"/ext/b.pdf\">b</a> <a href=\"/ext/c.txt\">c</a></body></html>");
        } else {
            exchange.sendText(200, "text/plain", "file " + exchange.path());
        }
    }
}
