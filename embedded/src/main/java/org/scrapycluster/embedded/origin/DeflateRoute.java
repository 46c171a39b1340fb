package org.scrapycluster.embedded.origin;

/**
 * A page sent with {@code Content-Encoding: deflate}, at {@code /deflate}: zlib-wrapped as the standard says,
 * or raw deflate as some servers send it with {@code /deflate?raw=true}.
 */
public final class DeflateRoute implements Route {

    public static final String PATH = "/deflate";

    /** The page once decompressed. */
    public static final String HTML = CompressedPages.HTML;

    private final byte[] zlib = CompressedPages.deflate(false);
    private final byte[] raw = CompressedPages.deflate(true);

    @Override
    public void serve(Exchange exchange) {
        byte[] body = "true".equals(exchange.param("raw")) ? raw : zlib;
        exchange.send(200, body, "Content-Type", "text/html; charset=utf-8", "Content-Encoding", "deflate");
    }
}
