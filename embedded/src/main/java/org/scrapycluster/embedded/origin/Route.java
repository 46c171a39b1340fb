package org.scrapycluster.embedded.origin;

/**
 * What the test origin does for requests to one path: each implementation simulates one situation a crawler
 * meets (a slow body, a 429, a redirect loop). Routes run on the server's event loop and must not block;
 * they answer through the {@link Exchange}, now or later.
 */
@FunctionalInterface
public interface Route {

    void serve(Exchange exchange);
}
