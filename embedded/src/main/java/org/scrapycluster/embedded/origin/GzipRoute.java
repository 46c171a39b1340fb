package org.scrapycluster.embedded.origin;

/** A page sent with {@code Content-Encoding: gzip} whatever the client accepts, at {@code /gzip}. */
public final class GzipRoute implements Route {

    public static final String PATH = "/gzip";

    /** The page once decompressed. */
    public static final String HTML = CompressedPages.HTML;

    private final byte[] body = CompressedPages.gzip();

    @Override
    public void serve(Exchange exchange) {
        exchange.send(200, body, "Content-Type", "text/html; charset=utf-8", "Content-Encoding", "gzip");
    }
}
